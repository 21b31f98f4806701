import { randomUUID } from 'node:crypto';
import { MODULES, msg, type ResetPasswordInput, type SigninData, type SignupUserInput } from '@impeto/shared';
import { passwordUserInputs, passwordWeakness } from '@impeto/shared/password-strength';
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

/** The names a password must not be made of: the person's own and their company's (its trade and legal names). */
export const userInputsOf = (
  user: { name: string; username: string; email: string },
  company?: { name: string; registration: Record<string, unknown> | null },
) => {
  const legal = company?.registration?.razao_social;
  return passwordUserInputs({ ...user, companies: [company?.name, typeof legal === 'string' ? legal : undefined] });
};

/** The strength rule (the field's shape was checked by the route's schema, the length limit first). */
export function assertStrongPassword(password: string, userInputs: string[], field: string) {
  const weakness = passwordWeakness(password, userInputs);
  if (weakness) throw new AppError('VALIDATION_FAILED', 400, weakness, { [field]: weakness });
}

const usernameTaken = () =>
  new AppError('USERNAME_TAKEN', 409, msg.signup.usernameTaken, { 'user.username': msg.signup.usernameTaken });

export async function signupUser(ctx: AppContext, input: SignupUserInput) {
  const company = await q.findCompany(ctx.db, input.company_uuid);
  if (!company) throw notFound(msg.signup.companyNotFound, 'COMPANY_NOT_FOUND');
  // Only the person who started this sign-up may finish it: once a company has its user, step 2 is closed.
  if (company.status !== 'unfinished' || (await q.countCompanyUsers(ctx.db, company.uuid)) > 0) {
    throw new AppError('COMPANY_FINISHED', 409, msg.signup.companyFinished);
  }
  assertStrongPassword(input.password, userInputsOf(input, company), 'user.password');
  if (await q.findUserByUsername(ctx.db, input.username)) throw usernameTaken();
  const owner = await q.findUserByEmail(ctx.db, input.email);
  const userUuid = randomUUID();
  const answer = { uuid: userUuid, name: input.name, username: input.username, email: input.email };
  // Hashed in both cases, so an address that has an account takes as long to answer as a new one.
  const passwordHash = await hashPassword(input.password);
  if (owner) {
    await answerTakenEmail(ctx, company.uuid, owner);
    return answer;
  }
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
    if (!isUniqueViolation(err)) throw err;
    const raced = constraintOf(err) === 'users_email_key' && (await q.findUserByEmail(ctx.db, input.email));
    if (!raced) throw usernameTaken();
    await answerTakenEmail(ctx, company.uuid, raced);
    return answer;
  }
  const cid = await issueOneTimeToken(ctx, userUuid, 'validate', VALIDATE_TTL_MS);
  const link = `${ctx.config.publicUrl}/validate?cid=${encodeURIComponent(cid)}`;
  await ctx.mailer.send({
    to: input.email,
    subject: msg.mail.validateSubject,
    text: `Olá, ${input.name}!\n\nConfirme seu e-mail para ativar sua conta no Ímpeto:\n${link}\n\nO link vale por 7 dias.`,
    html: `<p>Olá, ${escapeHtml(input.name)}!</p><p>Confirme seu e-mail para ativar sua conta no Ímpeto:</p><p><a href="${link}">Confirmar e-mail</a></p><p>O link vale por 7 dias.</p>`,
  });
  return answer;
}

/**
 * A sign-up with an address that already has an account is answered as a new one (the page says to check the
 * e-mail), so the form tells no stranger who has an account here; the address's owner is told instead, with the
 * ways in. The owner's account is left as it was. The attempt's company step is closed as a finished sign-up
 * closes it, so trying it again tells nothing either.
 */
async function answerTakenEmail(
  ctx: AppContext,
  companyUuid: string,
  owner: { name: string; username: string; email: string },
) {
  await q.activateCompany(ctx.db, companyUuid);
  const signin = `${ctx.config.publicUrl}/signin`;
  const recovery = `${ctx.config.publicUrl}/recovery`;
  await ctx.mailer.send({
    to: owner.email,
    subject: msg.mail.signupAttemptSubject,
    text: `Olá, ${owner.name}!\n\nAlguém tentou criar uma conta no Ímpeto com este e-mail, que já tem uma conta. Nenhuma conta nova foi criada e nada mudou na sua.\n\nSe foi você, entre com o seu nome de usuário (${owner.username}):\n${signin}\n\nSe esqueceu a senha, peça uma nova:\n${recovery}\n\nSe não foi você, pode ignorar este e-mail.`,
    html: `<p>Olá, ${escapeHtml(owner.name)}!</p><p>Alguém tentou criar uma conta no Ímpeto com este e-mail, que já tem uma conta. Nenhuma conta nova foi criada e nada mudou na sua.</p><p>Se foi você, <a href="${signin}">entre com o seu nome de usuário</a> (${escapeHtml(owner.username)}).</p><p>Se esqueceu a senha, <a href="${recovery}">peça uma nova</a>.</p><p>Se não foi você, pode ignorar este e-mail.</p>`,
  });
}

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
  input: {
    username: string;
    password: string;
    keepConnected: boolean;
    userAgent?: string;
    ip?: string;
    location?: string | null;
  },
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
    // Shown to this user on /profile, to tell sessions apart (issue #29); the sign-in time on the app's clock.
    createdAt: ctx.clock.now(),
    ip: input.ip?.slice(0, 64) || null,
    location: input.location?.slice(0, 200) || null,
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
  const tokenHash = hashToken(input.token);
  const pending = await q.findOneTimeToken(ctx.db, tokenHash, 'reset', now);
  const user = pending && (await q.findUserByUuid(ctx.db, pending.userUuid));
  if (!user) throw new AppError('RESET_TOKEN_INVALID', 400, msg.recovery.tokenInvalid);
  // Judged before the link is spent: a refused password leaves it good for the next try.
  const company = await q.findCompany(ctx.db, user.companyUuid);
  assertStrongPassword(input.password, userInputsOf(user, company), 'user.password');
  const passwordHash = await hashPassword(input.password);
  const used = await q.consumeOneTimeToken(ctx.db, tokenHash, 'reset', now);
  if (!used) throw new AppError('RESET_TOKEN_INVALID', 400, msg.recovery.tokenInvalid);
  await q.setPasswordHash(ctx.db, used.userUuid, passwordHash);
  // Opening the mailed link proves the address, and a reset must end every old session.
  await q.markValidated(ctx.db, used.userUuid, now);
  await q.revokeUserSessions(ctx.db, used.userUuid, now);
}

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
