import { type ChangePasswordInput, msg, type Profile, type UserSession } from '@impeto/shared';
import { verify } from '@node-rs/argon2';
import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { companies, oneTimeTokens, sessions, users } from '../../db/schema.ts';
import type { Principal } from '../../lib/auth-guard.ts';
import type { AppContext } from '../../lib/context.ts';
import { hashToken, randomToken } from '../../lib/crypto.ts';
import { AppError, isUniqueViolation, notFound } from '../../lib/errors.ts';
import { parseUserAgent } from '../../lib/user-agent.ts';
import { assertStrongPassword, escapeHtml, hashPassword, userInputsOf } from '../auth/auth.service.ts';

const EMAIL_TTL_MS = 24 * 3_600_000;

const invalid = (field: string, message: string, status = 400) =>
  new AppError('VALIDATION_FAILED', status, message, { [field]: message });

async function userOf(ctx: AppContext, userUuid: string) {
  const [user] = await ctx.db.select().from(users).where(eq(users.uuid, userUuid)).limit(1);
  if (!user) throw notFound();
  return user;
}

export async function getProfile(ctx: AppContext, userUuid: string): Promise<Profile> {
  const user = await userOf(ctx, userUuid);
  return { name: user.name, username: user.username, email: user.email, pending_email: user.pendingEmail };
}

export async function updateName(ctx: AppContext, userUuid: string, name: string) {
  await ctx.db.update(users).set({ name }).where(eq(users.uuid, userUuid));
  return getProfile(ctx, userUuid);
}

/** The new address gets a link; the change takes effect only when it is opened (proof the user owns it). */
export async function requestEmailChange(ctx: AppContext, userUuid: string, email: string) {
  const user = await userOf(ctx, userUuid);
  if (user.email.toLowerCase() === email.toLowerCase()) throw invalid('profile.email', msg.profile.emailSame);
  const [taken] = await ctx.db
    .select({ uuid: users.uuid })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email}) AND ${users.uuid} <> ${userUuid}`)
    .limit(1);
  if (taken) throw invalid('profile.email', msg.signup.emailTaken, 409);
  const token = randomToken();
  await ctx.db.transaction(async (tx) => {
    // One pending change at a time: an older link stops working when a new address is asked for.
    await tx
      .update(oneTimeTokens)
      .set({ usedAt: ctx.clock.now() })
      .where(and(eq(oneTimeTokens.userUuid, userUuid), eq(oneTimeTokens.kind, 'email'), isNull(oneTimeTokens.usedAt)));
    await tx.insert(oneTimeTokens).values({
      hash: hashToken(token),
      userUuid,
      kind: 'email',
      expiresAt: new Date(ctx.clock.now().getTime() + EMAIL_TTL_MS),
    });
    await tx.update(users).set({ pendingEmail: email }).where(eq(users.uuid, userUuid));
  });
  const link = `${ctx.config.publicUrl}/profile?email_token=${encodeURIComponent(token)}`;
  await ctx.mailer.send({
    to: email,
    subject: msg.profile.emailSubject,
    text: `Olá, ${user.name}!\n\nPara usar este endereço na sua conta do Ímpeto, abra:\n${link}\n\nO link vale por 24 horas. Se você não pediu a troca, ignore este e-mail.`,
    html: `<p>Olá, ${escapeHtml(user.name)}!</p><p><a href="${link}">Confirmar meu novo e-mail</a></p><p>O link vale por 24 horas. Se você não pediu a troca, ignore este e-mail.</p>`,
  });
  return getProfile(ctx, userUuid);
}

/** Opened from the mailed link while signed in as the same user. */
export async function confirmEmailChange(ctx: AppContext, userUuid: string, token: string) {
  const now = ctx.clock.now();
  const user = await userOf(ctx, userUuid);
  const [used] = await ctx.db
    .update(oneTimeTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(oneTimeTokens.hash, hashToken(token)),
        eq(oneTimeTokens.kind, 'email'),
        eq(oneTimeTokens.userUuid, userUuid),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, now),
      ),
    )
    .returning({ userUuid: oneTimeTokens.userUuid });
  if (!used || !user.pendingEmail) throw invalid('profile.token', msg.profile.emailTokenInvalid);
  try {
    await ctx.db.update(users).set({ email: user.pendingEmail, pendingEmail: null }).where(eq(users.uuid, userUuid));
  } catch (err) {
    if (isUniqueViolation(err)) throw invalid('profile.email', msg.signup.emailTaken, 409);
    throw err;
  }
  return getProfile(ctx, userUuid);
}

/** Current password required; every other session of the user ends, this one stays. */
export async function changePassword(ctx: AppContext, principal: Principal, input: ChangePasswordInput) {
  const user = await userOf(ctx, principal.userUuid);
  const good = await verify(user.passwordHash, input.current_password).catch(() => false);
  if (!good) throw invalid('profile.current_password', msg.profile.currentPasswordWrong);
  const [company] = await ctx.db.select().from(companies).where(eq(companies.uuid, user.companyUuid)).limit(1);
  assertStrongPassword(input.password, userInputsOf(user, company), 'profile.password');
  const passwordHash = await hashPassword(input.password);
  await ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.uuid, user.uuid));
    await endOtherSessions(ctx, principal, tx);
  });
}

const live = (userUuid: string, now: Date) =>
  and(eq(sessions.userUuid, userUuid), isNull(sessions.revokedAt), gt(sessions.expiresAt, now));

export async function listSessions(ctx: AppContext, principal: Principal): Promise<UserSession[]> {
  const rows = await ctx.db
    .select()
    .from(sessions)
    .where(live(principal.userUuid, ctx.clock.now()))
    .orderBy(desc(sql`coalesce(${sessions.lastUsedAt}, ${sessions.createdAt})`))
    .limit(100);
  return rows.map((s) => {
    const device = s.userAgent ? parseUserAgent(s.userAgent) : undefined;
    const browser = [device?.browser, device?.version?.split('.')[0]].filter(Boolean).join(' ');
    return {
      id: s.id,
      device: device
        ? [browser || 'Navegador desconhecido', device.os ? `em ${device.os}` : ''].filter(Boolean).join(' ')
        : 'Dispositivo desconhecido',
      mobile: device?.mobile ?? false,
      created_at: s.createdAt.toISOString(),
      last_used_at: s.lastUsedAt?.toISOString() ?? null,
      expires_at: s.expiresAt.toISOString(),
      keep_connected: s.keepConnected,
      current: s.id === principal.sessionId,
      ip: s.ip,
      location: s.location,
    };
  });
}

export async function endSession(ctx: AppContext, principal: Principal, id: string) {
  if (id === principal.sessionId) throw invalid('id', msg.profile.currentSession);
  const ended = await ctx.db
    .update(sessions)
    .set({ revokedAt: ctx.clock.now() })
    .where(and(eq(sessions.id, id), live(principal.userUuid, ctx.clock.now())))
    .returning({ id: sessions.id });
  // Another user's session id looks the same as an unknown one.
  if (ended.length === 0) throw notFound(msg.profile.sessionNotFound, 'SESSION_NOT_FOUND');
}

export async function endOtherSessions(
  ctx: AppContext,
  principal: Principal,
  db: Pick<AppContext['db'], 'update'> = ctx.db,
) {
  await db
    .update(sessions)
    .set({ revokedAt: ctx.clock.now() })
    .where(and(live(principal.userUuid, ctx.clock.now()), ne(sessions.id, principal.sessionId)));
}
