import { z } from 'zod';
import { msg } from '../messages.ts';

const hasControlCharacter = (v: string) => {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
};

/**
 * How a data subject is found (LGPD art. 18): by the tag's visitor id, or by the e-mail or phone the site sent with
 * `gero('identify', …)`. Exactly one key; e-mail and phone are normalised the way the collector stores them.
 */
export const personLookupSchema = z
  .object({
    vid: z
      .string({ error: msg.privacy.vidInvalid })
      .trim()
      .min(1, msg.privacy.vidInvalid)
      .max(200, msg.privacy.vidInvalid)
      // Control characters (NUL above all, which PostgreSQL cannot store) are never part of a tag's visitor id.
      .refine((v) => !hasControlCharacter(v), msg.privacy.vidInvalid),
    email: z
      .string({ error: msg.privacy.emailInvalid })
      .trim()
      .toLowerCase()
      .pipe(z.email(msg.privacy.emailInvalid).max(320, msg.privacy.emailInvalid)),
    phone: z
      .string({ error: msg.privacy.phoneInvalid })
      .max(40, msg.privacy.phoneInvalid)
      .transform((v) => v.replace(/\D/g, ''))
      .pipe(z.string().min(10, msg.privacy.phoneInvalid).max(13, msg.privacy.phoneInvalid)),
  })
  .partial()
  .strict()
  .refine((q) => [q.vid, q.email, q.phone].filter((v) => v !== undefined).length === 1, {
    message: msg.privacy.oneKey,
  });
export type PersonLookup = z.infer<typeof personLookupSchema>;

/** `DELETE /api/person/erase/:domain` body: the person to erase, found as by the export. */
export const personEraseSchema = z.object({ person: personLookupSchema });
export type PersonEraseInput = z.infer<typeof personEraseSchema>;

/** One person as the lookup shows it (the dashboard's summary before export or erasure). */
export interface PersonSummary {
  uuid: string;
  visitor_id: string;
  email: string | null;
  phone: string | null;
  name: string | null;
  first_seen: string;
  last_seen: string;
  push_status: 'subscribed' | 'unsubscribed' | null;
  events: number;
  deliveries: number;
}

/** What an erasure removed. */
export interface ErasureReport {
  persons: number;
  events: number;
  deliveries: number;
  onsite: number;
}
