import { describe, expect, it } from 'vitest';
import { routeOf } from './metrics';

describe('routeOf', () => {
  it('labels paths by their route template, and every unknown path alike', () => {
    expect(routeOf('/charge/card')).toBe('/charge/card');
    expect(routeOf('/charge/0123456789abcdef0123456789abcdef')).toBe('/charge/{chargeId}');
    expect(routeOf('/charge/abc/capture')).toBe('/charge/{chargeId}/capture');
    expect(routeOf('/health')).toBe('/health');
    expect(routeOf('/random/path/123')).toBe('unmatched');
    expect(routeOf('/x/4111111111111111')).toBe('unmatched');
  });
});
