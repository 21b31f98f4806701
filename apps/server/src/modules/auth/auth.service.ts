import { randomUUID } from 'node:crypto';
import { MODULES, msg, type ResetPasswordInput, type SigninData, type SignupUserInput } from '@impeto/shared';
import { hash, verify } from '@node-rs/argon2';
import type { AppContext } from '../../lib/context.ts';
import { hashToken, randomToken } from '../../lib/crypto.ts';
import { AppError, constraintOf, isUniqueViolation, notFound } from '../../lib/errors.ts';
import * as q from './auth.queries.ts';

const HOUR = 3_600_000;
const SESSION_SHORT_MS = 12 * HOUR;
const SESSION_LONG_MS = 30 * 24 * HOUR;
const VALIDATE_TTL_MS = 7 * 24 * HOUR;
const RESET_TTL_MS = HOUR;

/** argon2id (the library's default algorithm), OWASP's 19 MiB / t=2 profile. */
const ARGON = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };
export const hashPassword = (password: string) => hash(password, ARGON);

/** Verifying against a throwaway hash when the user does not exist keeps the answer time the same. */
let dummyHash: Promise<string> | undefined;

export async function createCompany(ctx: AppContext, name: string) {
  const [company] = await q.insertCompany(ctx.db, { uuid: randomUUID(), name, status: 'unfinished' });
  return company!;
}

/** Sign-up step 1 can be undone while the company has no user (READINGS A-10). */
export async function removeUnfinishedCompany(ctx: AppContext, uuid: string) {
  const company = await q.findCompany(ctx.db, uuid);
  if (!company) throw notFound(msg.signup.companyNotFound, 'COMPANY_NOT_FOUND');
  if (company.status !== 'unfinished' || (await q.countCompanyUsers(ctx.db, uuid)) > 0) {
    throw new AppError('COMPANY_HAS_USERS', 409, msg.signup.companyHasUsers);
  }
  await q.deleteUnfinishedCompany(ctx.db, uuid);
}

export async function signupUser(ctx: AppContext, input: SignupUserInput) {
  const company = await q.findCompany(ctx.db, input.company_uuid);
  if (!company) throw notFound(msg.signup.companyNotFound, 'COMPANY_NOT_FOUND');
  // Only the person who started this sign-up may finish it: once a company has its user, step 2 is closed.
  if (company.status !== 'unfinished' || (await q.countCompanyUsers(ctx.db, company.uuid)) > 0) {
    throw new AppError('COMPANY_FINISHED', 409, msg.signup.companyFinished);
  }
  await assertFree(ctx, input.username, input.email);
  const userUuid = randomUUID();
  const passwordHash = await hashPassword(input.password);
  try {
    await ctx.db.transaction(async (tx) => {
      await q.insertUser(tx, {
        uuid: userUuid,
        companyUuid: company.uuid,
        name: input.name,
        username: input.username,
        email: input.email,
        passwordHash,
      });
      await q.activateCompany(tx, company.uuid);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflictFor(constraintOf(err));
    throw err;
  }
  const cid = await issueOneTimeToken(ctx, userUuid, 'validate', VALIDATE_TTL_MS);
  const link = `${ctx.config.publicUrl}/validate?cid=${encodeURIComponent(cid)}`;
  await ctx.mailer.send({
    to: input.email,
    subject: msg.mail.validateSubject,
    text: `Olá, ${input.name}!\n\nConfirme seu e-mail para ativar sua conta no Ímpeto:\n${link}\n\nO link vale por 7 dias.`,
    html: `<p>Olá, ${escapeHtml(input.name)}!</p><p>Confirme seu e-mail para ativar sua conta no Ímpeto:</p><p><a href="${link}">Confirmar e-mail</a></p><p>O link vale por 7 dias.</p>`,
  });
  return { uuid: userUuid, name: input.name, username: input.username, email: input.email };
}

async function assertFree(ctx: AppContext, username: string, email: string) {
  if (await q.findUserByUsername(ctx.db, username)) throw conflictFor('users_username_key');
  if (await q.findUserByEmail(ctx.db, email)) throw conflictFor('users_email_key');
}

const conflictFor = (constraint: string | undefined) =>
  constraint === 'users_email_key'
    ? new AppError('EMAIL_TAKEN', 409, msg.signup.emailTaken, { 'user.email': msg.signup.emailTaken })
    : new AppError('USERNAME_TAKEN', 409, msg.signup.usernameTaken, { 'user.username': msg.signup.usernameTaken });

async function issueOneTimeToken(ctx: AppContext, userUuid: string, kind: 'validate' | 'reset', ttlMs: number) {
  const token = randomToken();
  await q.insertOneTimeToken(ctx.db, {
    hash: hashToken(token),
    userUuid,
    kind,
    expiresAt: new Date(ctx.clock.now().getTime() + ttlMs),
  });
  return token;
}

export async function validateAccount(ctx: AppContext, cid: string) {
  const now = ctx.clock.now();
  const used = await q.consumeOneTimeToken(ctx.db, hashToken(cid), 'validate', now);
  if (!used) throw new AppError('VALIDATION_FAILED', 400, msg.validation.failed);
  await q.markValidated(ctx.db, used.userUuid, now);
}

export async function signin(
  ctx: AppContext,
  input: { username: string; password: string; keepConnected: boolean; userAgent?: string },
): Promise<SigninData> {
  const user = await q.findUserByUsername(ctx.db, input.username);
  dummyHash ??= hashPassword(randomToken());
  const ok = await verify(user?.passwordHash ?? (await dummyHash), input.password).catch(() => false);
  if (!user || !ok) throw new AppError('WRONG_CREDENTIALS', 401, msg.signin.wrongCredentials);
  if (!user.validatedAt) throw new AppError('USER_NOT_VALIDATED', 403, msg.signin.notValidated);
  const token = randomToken();
  const expires = new Date(ctx.clock.now().getTime() + (input.keepConnected ? SESSION_LONG_MS : SESSION_SHORT_MS));
  await q.insertSession(ctx.db, {
    tokenHash: hashToken(token),
    userUuid: user.uuid,
    expiresAt: expires,
    keepConnected: input.keepConnected,
    userAgent: input.userAgent?.slice(0, 512) || null,
    lastUsedAt: ctx.clock.now(),
  });
  return {
    name: user.name,
    username: user.username,
    token,
    company_uuid: user.companyUuid,
    user_uuid: user.uuid,
    role: { modules: modulesOf(user.role).map((name) => ({ name })) },
    cookie: { expires: expires.toISOString() },
  };
}

/** Every role has every module for now; the set is the contract the sidebar reads (spec doc 1 §6). */
const modulesOf = (_role: string) => [...MODULES];

export const logout = (ctx: AppContext, token: string) => q.revokeSession(ctx.db, hashToken(token), ctx.clock.now());

/** Same answer whether or not the address exists; the mail goes out off the request path (READINGS A-11). */
export async function requestRecovery(ctx: AppContext, email: string) {
  const user = await q.findUserByEmail(ctx.db, email);
  if (!user) return;
  const token = await issueOneTimeToken(ctx, user.uuid, 'reset', RESET_TTL_MS);
  const link = `${ctx.config.publicUrl}/recovery/reset?token=${encodeURIComponent(token)}`;
  ctx.mailer
    .send({
      to: user.email,
      subject: msg.mail.resetSubject,
      text: `Olá, ${user.name}!\n\nPara escolher uma nova senha, abra:\n${link}\n\nO link vale por 1 hora. Se você não pediu a redefinição, ignore este e-mail.`,
      html: `<p>Olá, ${escapeHtml(user.name)}!</p><p><a href="${link}">Escolher uma nova senha</a></p><p>O link vale por 1 hora. Se você não pediu a redefinição, ignore este e-mail.</p>`,
    })
    .catch((err) => ctx.log.error({ err }, 'falha ao enviar e-mail de recuperação'));
}

export async function resetPassword(ctx: AppContext, input: ResetPasswordInput['user']) {
  const now = ctx.clock.now();
  const passwordHash = await hashPassword(input.password);
  const used = await q.consumeOneTimeToken(ctx.db, hashToken(input.token), 'reset', now);
  if (!used) throw new AppError('RESET_TOKEN_INVALID', 400, msg.recovery.tokenInvalid);
  await q.setPasswordHash(ctx.db, used.userUuid, passwordHash);
  // Opening the mailed link proves the address, and a reset must end every old session.
  await q.markValidated(ctx.db, used.userUuid, now);
  await q.revokeUserSessions(ctx.db, used.userUuid, now);
}

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
