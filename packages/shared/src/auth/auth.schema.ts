import { msg } from '../messages.ts';
import { z } from '../zod.ts';

/** A required text field: missing, non-string or blank all give the same required message. */
export const requiredText = (message: string) => z.string({ error: message }).trim().min(1, message);

export const usernameSchema = requiredText(msg.signup.usernameRequired).pipe(
  z.string().regex(/^[A-Za-z0-9._-]{3,50}$/, msg.signup.usernameInvalid),
);

/** The length limit comes first: a password past it gets that message alone, never a blank or strength one. */
export const passwordSchema = z
  .string({ error: msg.signup.passwordRequired })
  .max(200, { message: msg.signup.passwordTooLong, abort: true })
  .min(1, msg.signup.passwordRequired)
  .refine((p) => p.trim() !== '', { message: msg.password.blank, abort: true })
  .min(8, msg.signup.passwordTooShort);

const emailSchema = requiredText(msg.signup.emailRequired).pipe(
  z.email(msg.signup.emailRequired).max(254, msg.signup.emailRequired),
);

export const signinSchema = z.object({
  user: z.object(
    {
      username: requiredText(msg.signin.usernameRequired),
      password: z.string({ error: msg.signin.passwordRequired }).min(1, msg.signin.passwordRequired),
    },
    { error: msg.signin.usernameRequired },
  ),
  captcha: requiredText(msg.signin.captchaRequired),
  keep_connected: z.boolean().optional(),
});
export type SigninInput = z.infer<typeof signinSchema>;

export const createCompanySchema = z.object({
  company: z.object(
    { name: requiredText(msg.signup.companyNameRequired).pipe(z.string().max(120)) },
    { error: msg.signup.companyNameRequired },
  ),
});
export type CreateCompanyInput = z.infer<typeof createCompanySchema>;

export const signupUserFields = z
  .object({
    company_uuid: z.uuid(msg.signup.companyNotFound),
    name: requiredText(msg.signup.fullnameRequired).pipe(z.string().max(120)),
    username: usernameSchema,
    email: emailSchema,
    password: passwordSchema,
    password_confirmation: z
      .string({ error: msg.signup.passwordConfirmationRequired })
      .min(1, msg.signup.passwordConfirmationRequired),
  })
  .refine((u) => u.password === u.password_confirmation, {
    message: msg.signup.passwordConfirmationRequired,
    path: ['password_confirmation'],
  });
export type SignupUserInput = z.infer<typeof signupUserFields>;

export const recoveryFields = z.object({
  email: requiredText(msg.recovery.emailRequired).pipe(z.email(msg.recovery.emailRequired).max(254)),
});

/**
 * POST /users/signup takes three shapes (READINGS ): a company step, a user whose only key
 * is email (recovery), or the full user step. `signupKind` picks the schema, so each shape gets its own messages.
 */
export const signupEnvelopeSchema = z.object({ company: z.unknown().optional(), user: z.unknown().optional() });
export const signupUserSchema = z.object({ user: signupUserFields });
export const recoverySchema = z.object({ user: recoveryFields });
export const signupKind = (body: { company?: unknown; user?: unknown }) => {
  if (body.company !== undefined) return 'company' as const;
  const user = body.user;
  if (user && typeof user === 'object' && Object.keys(user).length === 1 && 'email' in user) return 'recovery' as const;
  return 'user' as const;
};

export const validateAccountSchema = z.object({
  user: z.object({ cid: requiredText(msg.validation.accountNotFound).pipe(z.string().max(200)) }),
});

export const resetPasswordSchema = z.object({
  user: z
    .object({
      token: requiredText(msg.recovery.tokenInvalid).pipe(z.string().max(200)),
      password: passwordSchema,
      password_confirmation: z
        .string({ error: msg.signup.passwordConfirmationRequired })
        .min(1, msg.signup.passwordConfirmationRequired),
    })
    .refine((u) => u.password === u.password_confirmation, {
      message: msg.signup.passwordConfirmationRequired,
      path: ['password_confirmation'],
    }),
});
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

/** The module names a role carries; the sidebar and the route guard read them. */
export const MODULES = [
  'analytics',
  'momentums',
  'campaigns',
  'dcm',
  'domains',
  'media',
  'channels',
  'settings',
] as const;
export type ModuleName = (typeof MODULES)[number];

export interface SigninData {
  name: string;
  username: string;
  token: string;
  company_uuid: string;
  user_uuid: string;
  role: { modules: { name: ModuleName }[] };
  cookie: { expires: string };
}

export interface ApiSuccess<T> {
  message: string;
  data: T;
}
export interface ApiFailure {
  message: string;
  code: string;
  fields?: Record<string, string>;
}
