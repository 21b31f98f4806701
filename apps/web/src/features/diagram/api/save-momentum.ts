import type { Experiment, MomentumItem, MomentumType, Worktime } from '@impeto/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** The flat create/update body (spec doc 2 §3.1, §7). */
export interface DiagramSaveBody {
  uuid?: string;
  /** From the session (spec doc 2 §3.1); the server checks them against the token. */
  company_uuid?: string;
  user_uuid?: string;
  domain_uuid: string;
  type: MomentumType;
  momentum_title: string;
  momentum_description: string | null;
  status?: 'Active' | 'Paused' | 'Draft';
  scheduled_at: string | null;
  channel_uuid: string | null;
  momentums: unknown[];
  worktime?: Worktime | null;
  /** A/B variants and control group (issue #25); absent when the channel block has none. */
  experiment?: Experiment;
}

/** POST /momentum/create, or PUT /momentum/update when the body carries uuid. */
export const saveDiagram = (body: DiagramSaveBody) =>
  body.uuid
    ? api.put<MomentumItem>('/momentum/update', body, { service: 'momentum' })
    : api.post<MomentumItem>('/momentum/create', body, { service: 'momentum' });

export function useSaveDiagram() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveDiagram,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['momentums'] }),
        // Marked stale, not read again now: the editor that saved is leaving (an Active item would bounce it).
        queryClient.invalidateQueries({ queryKey: ['momentum'], refetchType: 'none' }),
      ]),
  });
}
