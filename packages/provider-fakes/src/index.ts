export { DESCRIPTIONS, loadDescription, type DescriptionName } from './openapi/descriptions.js';
