import { router } from '../../trpc';
import { me } from './me';
import { signIn } from './sign-in';
import { signOut } from './sign-out';

/** Dashboard sign-in (tRPC only). */
export const staffRouter = router({ signIn, signOut, me });
