import { z } from '../zod.ts';

/**
 * The demonstration clock (`DEMO_CLOCK=1`, never in production): `npm run demo` moves the server's clock back
 * through the last 30 days while it sends history through the collector, then gives it back (`at: null`).
 */
export const devClockMessages = {
  invalid: 'Informe o instante do relógio de demonstração (ISO 8601, UTC) ou null para voltar ao relógio real.',
  future: 'O relógio de demonstração só anda no passado: informe um instante até agora.',
  moved: 'Relógio de demonstração ajustado.',
  reset: 'Relógio de demonstração devolvido ao relógio real.',
} as const;

export const devClockSchema = z.object({
  clock: z.object(
    { at: z.iso.datetime({ offset: true, error: devClockMessages.invalid }).nullable() },
    { error: devClockMessages.invalid },
  ),
});
export type DevClockInput = z.infer<typeof devClockSchema>;

export interface DevClockState {
  /** The server's now (ISO 8601, UTC). */
  now: string;
  /** True while the clock is moved back. */
  shifted: boolean;
}
