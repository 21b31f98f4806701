import { describe, expect, it } from 'vitest';
import { dashboardCsv } from './dashboard-csv.ts';

/* Journeys (issue #26) in the dashboard's CSV export: one table per momentum with steps. */

const row = (step: number, branch: 'main' | 'otherwise', reached: number) => ({
  step,
  branch,
  reached,
  left_by_condition: step === 1 && branch === 'main' ? 3 : 0,
  exited_conversion: step === 1 ? 2 : 0,
  sent: reached,
  viewed: 4,
  clicked: 1,
  conversions: 1,
  revenue: 99.9,
});

describe('dashboard CSV: journeys', () => {
  it('writes a table per journey, a row per step and branch', () => {
    const text = dashboardCsv({
      domainName: 'Loja Aurora',
      range: { start: '2026-11-01', end: '2026-11-02' },
      journeys: [
        {
          momentum_uuid: 'm-1',
          momentum_title: 'Carrinho abandonado',
          steps: [row(0, 'main', 10), row(1, 'main', 8), row(1, 'otherwise', 3)],
        },
      ],
    });
    const lines = text.split('\r\n');
    const at = lines.indexOf('Jornada: Carrinho abandonado');
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at + 1, at + 5)).toEqual([
      'Etapa,Alcançaram,Saíram pela condição,Saíram ao converter,Enviadas,Visualizadas,Cliques,Conversões,Receita (R$)',
      'Primeira mensagem,10,0,0,10,4,1,1,99.90',
      'Etapa 1,8,3,2,8,4,1,1,99.90',
      'Etapa 1 · senão,3,0,2,3,4,1,1,99.90',
    ]);
  });

  it('has no journey table without journeys', () => {
    const text = dashboardCsv({ domainName: 'Loja Aurora', range: { start: '2026-11-01', end: '2026-11-02' } });
    expect(text).not.toContain('Jornada:');
  });
});
