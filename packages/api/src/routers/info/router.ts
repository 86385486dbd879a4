import { router } from '../../trpc';
import { defaultFallbackProvider } from './default-fallback-provider';
import { get } from './get';
import { provider } from './provider';
import { providerForToken } from './provider-for-token';
import { providerTypes } from './provider-types';
import { providers } from './providers';

export const infoRouter = router({
  get,
  providers,
  providerTypes,
  provider,
  providerForToken,
  defaultFallbackProvider,
});
