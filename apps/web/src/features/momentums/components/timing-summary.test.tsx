import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DOMAIN, ok, renderPage } from '../../../test/render-page.tsx';
import { formatSpan, TimingSummary } from './timing-summary.tsx';

/* The summary's 'Horário de envio' for throttled momentums (issue #27): recurrences and event triggers. */

const everyone = { type: 'filter', regex: false, values: [{ filter: 'all', value: [] }] };
const trigger = (filter: string) => ({ type: 'trigger', regex: false, values: [{ filter, value: [] }] });
const impacted = {
  [`POST /api/person/search/peopleImpacted/${DOMAIN}`]: ok({ percentualAtingido: 100, total: 2500, impacted: 2500 }),
};

describe('the summary of a throttled momentum', () => {
  it('says how long each occurrence of a recurrence takes to reach its audience, on each visitor’s clock', async () => {
    renderPage(
      <TimingSummary
        timing={{ throttle_per_minute: 30, worktime_zone: 'visitor' }}
        isCampaign={false}
        domainUuid={DOMAIN}
        blocks={[everyone, trigger('recurrence')]}
      />,
      { fetch: impacted },
    );
    expect(screen.getByText('Recorrência e Cronograma no horário de cada visitante.')).toBeTruthy();
    // 2.500 people at 30 a minute: the last one 2.499 × 2 s after the first.
    expect(
      await screen.findByText(
        'Cada ocorrência termina cerca de 1 h 24 min depois de começar (2.500 pessoas a 30 por minuto).',
      ),
    ).toBeTruthy();
  });

  it('foresees no end for a momentum started by events, and asks for no audience', async () => {
    const { calls } = renderPage(
      <TimingSummary
        timing={{ throttle_per_minute: 30 }}
        isCampaign={false}
        domainUuid={DOMAIN}
        blocks={[everyone, trigger('pageview')]}
      />,
      { fetch: impacted },
    );
    expect(screen.getByText('No máximo 30 envios por minuto, espaçados por igual.')).toBeTruthy();
    expect(
      screen.getByText(
        'Sem término previsto: os envios saem conforme os gatilhos acontecem, espaçados para não passar do limite.',
      ),
    ).toBeTruthy();
    expect(calls.some((c) => c.url.includes('peopleImpacted'))).toBe(false);
  });

  it('writes spans in hours and minutes', () => {
    expect([formatSpan(0), formatSpan(25 * 60_000), formatSpan(100 * 60_000), formatSpan(120 * 60_000)]).toEqual([
      'menos de 1 min',
      '25 min',
      '1 h 40 min',
      '2 h',
    ]);
  });
});
