import type { ExperimentWinner, WinnerMetric } from '@impeto/shared';
import { formatZoned } from './zoned-time.ts';

/*
 * Send the winner (issue #25) in words, for the v2 form's summary and the experiment report: the plan ('Testar em
 * 20 % do público por 4 horas e enviar a vencedora ao restante'), then when the rest goes out and with which variant.
 */

export const METRIC_LABELS: Record<WinnerMetric, string> = {
  click_rate: 'taxa de cliques',
  conversion_rate: 'taxa de conversão',
};

const hoursText = (h: number) => `${h} ${h === 1 ? 'hora' : 'horas'}`;
const when = (iso: string) => formatZoned(iso, 'DD/MM [às] HH:mm');

export const winnerPlanLine = (w: Pick<ExperimentWinner, 'test_percent' | 'hours' | 'metric'>) =>
  `Testar em ${w.test_percent} % do público por ${hoursText(w.hours)} e enviar a vencedora ao restante ` +
  `(vencedora por ${METRIC_LABELS[w.metric]}).`;

/**
 * Where the test stands: decided ('Vencedora: B, enviada ao restante em 04/05 às 14:01 (722 pessoas).'), planned
 * ('A vencedora será enviada em 04/05 às 14:00.'), or, not sent yet, from its schedule; null when nothing is known.
 */
export function winnerStatusLine(
  w: Pick<ExperimentWinner, 'hours'>,
  decision:
    | { planned_at?: string | null; decided_at?: string | null; winner?: string | null; rest?: number | null }
    | null
    | undefined,
  scheduledAt?: string | null,
): string | null {
  if (decision?.decided_at && decision.winner) {
    const rest =
      typeof decision.rest === 'number' ? ` (${decision.rest} ${decision.rest === 1 ? 'pessoa' : 'pessoas'})` : '';
    return `Vencedora: ${decision.winner}, enviada ao restante em ${when(decision.decided_at)}${rest}.`;
  }
  if (decision?.planned_at) return `A vencedora será enviada em ${when(decision.planned_at)}.`;
  if (scheduledAt) {
    return `A vencedora será enviada em ${when(new Date(new Date(scheduledAt).getTime() + w.hours * 3_600_000).toISOString())}.`;
  }
  return null;
}
