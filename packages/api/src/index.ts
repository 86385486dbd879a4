export { appRouter, type AppRouter } from './root';
export { openApiDocument } from './openapi';
export type { NewProvider, FeeInput } from './services/providers/provider-service';
export { createServices, systemClock, type Services, type Clock, type Logger, type ServiceConfig, type Dependencies } from './services';
export { countSealedByKey, rewrapSealedData } from './services/sealed-data';
export { hashSecretKey } from './services/accounts';
export type { Context } from './context';
export { sessionTokenOf } from './routers/staff/session-cookie';
export { toApiError, renderApiError, type ApiErrorBody } from './errors';
