import { passwordSchema, requiredText } from '../auth/auth.schema.ts';
import { msg } from '../messages.ts';
import { z } from '../zod.ts';

/** /profile: the signed-in user's own data, sessions and password (not in the spec; DESIGN.md §12 placement). */
export const profileSchema = z.object({
  name: z.string(),
  username: z.string(),
  email: z.string(),
  /** An address asked for and not confirmed yet (its link was mailed to it). */
  pending_email: z.string().nullable(),
});
export type Profile = z.infer<typeof profileSchema>;

export const updateProfileSchema = z.object({
  profile: z.object({ name: requiredText(msg.profile.nameRequired).pipe(z.string().max(120)) }),
});

export const changeEmailSchema = z.object({
  profile: z.object({
    email: requiredText(msg.profile.emailInvalid).pipe(
      z.email(msg.profile.emailInvalid).max(254, msg.profile.emailInvalid),
    ),
  }),
});

export const confirmEmailSchema = z.object({
  profile: z.object({ token: requiredText(msg.profile.emailTokenInvalid).pipe(z.string().max(200)) }),
});

export const changePasswordFields = z
  .object({
    current_password: z
      .string({ error: msg.profile.currentPasswordRequired })
      .min(1, msg.profile.currentPasswordRequired),
    // Empty is told in pt-BR first; the rest (blank, length) are the sign-up's own pt-BR rules.
    password: z
      .string({ error: msg.profile.newPasswordRequired })
      .min(1, msg.profile.newPasswordRequired)
      .pipe(passwordSchema),
    password_confirmation: z
      .string({ error: msg.profile.passwordConfirmationRequired })
      .min(1, msg.profile.passwordConfirmationRequired),
  })
  .refine((p) => p.password_confirmation === '' || p.password === p.password_confirmation, {
    message: msg.profile.passwordMismatch,
    path: ['password_confirmation'],
  })
  .refine((p) => p.password !== p.current_password, { message: msg.profile.passwordSame, path: ['password'] });
export const changePasswordSchema = z.object({ profile: changePasswordFields });
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>['profile'];

export const userSessionSchema = z.object({
  id: z.uuid(),
  /** 'Chrome 130 em Windows 10', from the user agent of the sign-in. */
  device: z.string(),
  mobile: z.boolean(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  expires_at: z.string(),
  keep_connected: z.boolean(),
  current: z.boolean(),
  /** The address and place the session signed in from (kept from 0016 on; older sessions have neither). */
  ip: z.string().nullable().optional(),
  location: z.string().nullable().optional(),
});
export type UserSession = z.infer<typeof userSessionSchema>;

export const sessionIdParamsSchema = z.object({ id: z.uuid(msg.profile.sessionNotFound) });

/** /payment: the plan and one month's usage per domain, read from the rollups. */
export const usageQuerySchema = z.object({
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, msg.usage.monthInvalid)
    .optional(),
});

export const USAGE_CHANNELS = [
  'CELL_NOTIFICATION',
  'SUPERARE_WEBVIEW',
  'ZENVIA',
  'AWS_SES',
  'AKNA',
  'ONE_SIGNAL',
] as const;

export const domainUsageSchema = z.object({
  domain_uuid: z.uuid(),
  name: z.string(),
  events: z.number(),
  pageviews: z.number(),
  visitors: z.number(),
  messages: z.record(z.string(), z.number()),
  messages_total: z.number(),
});
export type DomainUsage = z.infer<typeof domainUsageSchema>;

export const usageSchema = z.object({
  plan: z.literal('self_hosted'),
  month: z.string(),
  domains: z.array(domainUsageSchema),
});
export type Usage = z.infer<typeof usageSchema>;
