import { router } from '../../trpc';
import { create } from './create';
import { get } from './get';
import { getPayment } from './get-payment';
import { getPublic } from './get-public';
import { pay } from './pay';
import { search } from './search';

export const paymentLinkRouter = router({ create, get, search, getPublic, pay, getPayment });
