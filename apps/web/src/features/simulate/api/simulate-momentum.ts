import type { SimulationDays, SimulationResult } from '@impeto/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** POST /momentum/simulate: the body of /momentum/create (saved or not) replayed over the last 1, 7 or 30 days. */
export const simulateMomentum = (momentum: unknown, days: SimulationDays, signal?: AbortSignal) =>
  api.post<SimulationResult>('/momentum/simulate', { momentum, days }, { service: 'momentum', signal });

/** A mutation, not a query: a simulation is asked for with the button, never cached or refetched. */
export const useSimulateMomentum = () =>
  useMutation({
    mutationFn: ({ momentum, days, signal }: { momentum: unknown; days: SimulationDays; signal: AbortSignal }) =>
      simulateMomentum(momentum, days, signal).then((answer) => answer.data),
  });
