import { z } from '../zod.ts';

/**
 * The first steps of a domain (issues #14, #29), in the order a new user takes them. Each is read from real data:
 * the collector stored something for the domain (or the validation found the script, which proves it installed),
 * gero_validate, an active push channel, a visitor's opt-in, a momentum that is (or was, Done) active, and the
 * first message that actually went out (a delivery sent, then maybe viewed or clicked): the last step.
 */
export const ONBOARDING_STEPS = [
  'script_installed',
  'domain_validated',
  'push_integrated',
  'first_optin',
  'momentum_active',
  'first_delivery',
] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

export const domainOnboardingSchema = z.object({
  domain_uuid: z.uuid(),
  steps: z.object({
    script_installed: z.boolean(),
    domain_validated: z.boolean(),
    push_integrated: z.boolean(),
    first_optin: z.boolean(),
    momentum_active: z.boolean(),
    first_delivery: z.boolean(),
  }),
  done_count: z.number().int().min(0),
  total: z.number().int().min(1),
  complete: z.boolean(),
});
export type DomainOnboarding = z.infer<typeof domainOnboardingSchema>;

/** The web push opt-in models of the tag: `gero('optin', model)` (DESIGN.md §11, packages/tracker README). */
export const OPTIN_MODEL_NAMES = ['default', 'topbox'] as const;
export type OptinModelName = (typeof OPTIN_MODEL_NAMES)[number];
