import { createHash, randomBytes } from 'node:crypto';
import { ApiError, newId } from '@gateway/core';
import type { Account } from '@gateway/db';
import type { Dependencies } from '../deps';
import { hashPassword, verifyPassword } from './passwords';
import type { Counters } from '../limits';

/** Who is signed in to the dashboard, as procedures see it (ctx.staff). */
export interface StaffIdentity {
  userId: string;
  email: string;
  name: string;
  sessionId: string;
}

export interface NewStaffUser {
  email: string;
  name: string;
  password: string;
}

const SESSION_MS = 12 * 60 * 60_000;
const TOO_MANY = 'Too many failed sign-ins from your address: try again later';

const tokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
const normalEmail = (email: string) => email.trim().toLowerCase();

/**
 * Dashboard users and their sessions. A session is a random token given to the browser in a
 * cookie; the database keeps only its SHA-256. Failed sign-ins are counted per client address and
 * per email and address together (in the database, for every gateway process), and past either
 * limit that address is answered 429 until its window ends: nobody elsewhere can lock a staff member
 * out, since the owner signs in from another address. A sign-in counts as failed until its password
 * matches, so concurrent guesses all count. Every failure gets the same answer whether the email
 * exists or not.
 */
export function createStaffService({ db, clock }: Dependencies, counters: Counters) {
  const byAddress = counters['sign-in-address-failures'];
  const byPair = counters['sign-in-pair-failures'];
  // The email is hashed: the RateLimit table keeps no address book.
  const pairOf = (email: string, address: string) => `${tokenHash(email)}@${address}`;
  // Checked against when the email is unknown, so that a wrong email takes as long as a wrong password.
  let unknownUserHash: Promise<string> | undefined;

  return {
    async create(account: Pick<Account, 'id'>, user: NewStaffUser) {
      return db.staffUser.create({
        data: {
          id: newId(),
          accountId: account.id,
          email: normalEmail(user.email),
          name: user.name,
          passwordHash: await hashPassword(user.password),
        },
      });
    },

    async signIn(
      email: string,
      password: string,
      address: string,
    ): Promise<{ token: string; expiresAt: Date; staff: StaffIdentity; account: Account }> {
      const now = clock.now();
      const key = normalEmail(email);
      const pair = pairOf(key, address);
      await Promise.all([byAddress.count(address, TOO_MANY), byPair.count(pair, TOO_MANY)]);
      const user = await db.staffUser.findUnique({ where: { email: key }, include: { account: true } });
      unknownUserHash ??= hashPassword(randomBytes(16).toString('hex'));
      const matches = await verifyPassword(password, user?.passwordHash ?? (await unknownUserHash)).catch(async (error: unknown) => {
        // Refused for the crowd of checks, not for this attempt: it counts as no failure.
        await Promise.all([byPair.giveBack(pair), byAddress.giveBack(address)]);
        throw error;
      });
      if (!user || user.account.disabledAt || !matches) throw new ApiError('InvalidAuthentication', { message: 'Wrong email or password' });
      // A success is no failure: the address's count goes back to what it was before this attempt.
      await Promise.all([byPair.forget(pair), byAddress.giveBack(address)]);
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(now.getTime() + SESSION_MS);
      const session = await db.staffSession.create({ data: { id: newId(), userId: user.id, tokenHash: tokenHash(token), expiresAt } });
      await db.staffUser.update({ where: { id: user.id }, data: { lastSignInAt: now } });
      return {
        token,
        expiresAt,
        staff: { userId: user.id, email: user.email, name: user.name, sessionId: session.id },
        account: user.account,
      };
    },

    /** The staff member and account of a session cookie's token, while the session lasts. */
    async bySessionToken(token: string): Promise<{ staff: StaffIdentity; account: Account } | null> {
      const session = await db.staffSession.findUnique({
        where: { tokenHash: tokenHash(token) },
        include: { user: { include: { account: true } } },
      });
      if (!session || session.expiresAt <= clock.now() || session.user.account.disabledAt) return null;
      const { user } = session;
      return { staff: { userId: user.id, email: user.email, name: user.name, sessionId: session.id }, account: user.account };
    },

    async signOut(sessionId: string): Promise<void> {
      await db.staffSession.deleteMany({ where: { id: sessionId } });
    },

    /** Maintenance: forgets expired sessions. */
    async sweep(): Promise<number> {
      return (await db.staffSession.deleteMany({ where: { expiresAt: { lte: clock.now() } } })).count;
    },
  };
}

export type StaffService = ReturnType<typeof createStaffService>;
