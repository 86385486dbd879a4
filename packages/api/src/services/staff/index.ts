import { createHash, randomBytes } from 'node:crypto';
import { ApiError, newId } from '@gateway/core';
import type { Account } from '@gateway/db';
import type { Dependencies } from '../deps';
import { hashPassword, verifyPassword } from './passwords';
import { createAttemptCounter } from './rate-limit';

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
/** Password checks per minute, all emails together, unless the configuration says otherwise. */
const PASSWORD_CHECKS_PER_MINUTE = 30;
const ALL = 'all';

const tokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
const normalEmail = (email: string) => email.trim().toLowerCase();

/**
 * Dashboard users and their sessions. A session is a random token given to the browser in a
 * cookie; the database keeps only its SHA-256. Sign-ins are limited per email (5 failed ones in
 * 15 minutes) and for all emails together (password checks per minute, which also bounds the CPU
 * that scrypt takes), and every failure gets the same answer whether the email exists or not. The
 * client's address is not used: behind the dashboard's server it is whatever the client claims.
 */
export function createStaffService({ db, clock, config }: Dependencies) {
  const failuresByEmail = createAttemptCounter({ limit: 5, windowMs: 15 * 60_000 });
  const checks = createAttemptCounter({ limit: config.passwordChecksPerMinute ?? PASSWORD_CHECKS_PER_MINUTE, windowMs: 60_000 });
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

    async signIn(email: string, password: string): Promise<{ token: string; expiresAt: Date; staff: StaffIdentity; account: Account }> {
      const now = clock.now();
      const key = normalEmail(email);
      if (failuresByEmail.blocked(key, now.getTime()) || checks.blocked(ALL, now.getTime())) {
        throw new ApiError('RateLimitingApplied', { message: 'Too many sign-in attempts: try again in a few minutes' });
      }
      // Counted as failed until the password matches: sign-ins running together all count.
      failuresByEmail.count(key, now.getTime());
      checks.count(ALL, now.getTime());
      const user = await db.staffUser.findUnique({ where: { email: key }, include: { account: true } });
      unknownUserHash ??= hashPassword(randomBytes(16).toString('hex'));
      const matches = await verifyPassword(password, user?.passwordHash ?? (await unknownUserHash));
      if (!user || !matches) throw new ApiError('InvalidAuthentication', { message: 'Wrong email or password' });
      failuresByEmail.reset(key);
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
      if (!session || session.expiresAt <= clock.now()) return null;
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
