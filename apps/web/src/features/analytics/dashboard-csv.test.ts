import { describe, expect, it } from 'vitest';
import { csvValue, toCsv } from '../../lib/csv.ts';
import { dashboardCsv, exportFileName } from './dashboard-csv.ts';

describe('dashboard CSV (READINGS A-24)', () => {
  it('quotes values with commas, quotes or line breaks, and ends every row with CRLF', () => {
    expect(csvValue('a,b')).toBe('"a,b"');
    expect(csvValue('diz "oi"')).toBe('"diz ""oi"""');
    expect(csvValue('linha\nquebrada')).toBe('"linha\nquebrada"');
    expect(csvValue(1234.5)).toBe('1234.5');
    expect(csvValue(null)).toBe('');
    expect(
      toCsv([
        ['a', 1],
        ['b,c', 2],
      ]),
    ).toBe('a,1\r\n"b,c",2\r\n');
  });

  it('names the file after the export date', () => {
    expect(exportFileName('2026-11-23')).toBe('cell_dashboard_export_2026-11-23.csv');
  });

  it('writes one block per widget with its header row, empty rows for widgets without data', () => {
    const text = dashboardCsv({
      domainName: 'Loja Aurora',
      range: { start: '2026-11-01', end: '2026-11-02' },
      visits: { count: 1500, previous: 1000 },
      momentums: { active: 2, inactive: 1 },
      mostViewed: {
        message: 'Most viewed pages have been loaded.',
        rows: [{ url: 'https://loja.example.com/busca?q=tênis,azul', mobile: 3, desktop: 1, count: 4 }],
      },
      performance: [
        {
          momentum_uuid: 'x',
          momentum_title: 'Oferta "relâmpago"',
          type: 'momentum',
          notifications_sent: 10,
          notifications_viewed: 8,
          notifications_clicked: 2,
          notifications_ctr: 20,
          not_convertion: 1,
          not_convertion_profit: 1234.5,
          not_cart_access: 1,
          not_cart_access_percent: 10,
        },
      ],
      optins: [
        { date: '2026-11-01', optins: 5, optouts: 1 },
        { date: '2026-11-02', optins: 0, optouts: 0 },
      ],
    });
    expect(text).toBe(
      [
        'Painel',
        'Domínio,Início,Fim',
        'Loja Aurora,2026-11-01,2026-11-02',
        '',
        'Visualizações de página',
        'Visualizações,Período anterior',
        '1500,1000',
        '',
        'Visitantes',
        'Visitantes,Período anterior',
        '',
        'Momentums',
        'Inativos,Ativos',
        '1,2',
        '',
        'Visitantes agora',
        'Visitantes,Em',
        '',
        'Páginas mais visitadas',
        'URL,Mobile,Desktop,Total',
        '"https://loja.example.com/busca?q=tênis,azul",3,1,4',
        '',
        'Visitantes por categoria',
        'Categoria,Visitantes',
        '',
        'Visitantes por dispositivo',
        'Dispositivo,Visitantes',
        '',
        'Base por canal',
        'Canal,Pessoas,Novas no período',
        '',
        'Desempenho dos momentums',
        'Momentum,Tipo,Enviadas,Visualizadas,Cliques,CTR (%),Conversões,Receita (R$),Acessos ao carrinho,% carrinho',
        '"Oferta ""relâmpago""",Momentum,10,8,2,20,1,1234.50,1,10',
        '',
        'Impacto por momentum',
        'Data,Momentum,Enviadas,Visualizadas,Cliques',
        '',
        'Impacto por evento',
        'Data,Categoria,Visitantes',
        '',
        'Opt-ins e opt-outs por dia',
        'Data,Opt-ins,Opt-outs',
        '2026-11-01,5,1',
        '2026-11-02,0,0',
        '',
      ].join('\r\n'),
    );
  });

  it("adds each experiment's table: the arms, then each variant against the control with the verdict", () => {
    const text = dashboardCsv({
      domainName: 'Loja Aurora',
      range: { start: '2026-11-01', end: '2026-11-02' },
      experiments: [
        {
          momentum_uuid: 'm',
          momentum_title: 'Carrinho, teste',
          type: 'momentum',
          control_percent: 20,
          variants: ['A', 'B'],
          arms: [
            {
              arm: 'control',
              label: 'Grupo de controle',
              share: 20,
              assigned: 200,
              sent: 0,
              viewed: 0,
              clicked: 0,
              conversions: 6,
              converted: 6,
              revenue: 600,
              conversion_rate: 3,
              click_rate: 0,
            },
            {
              arm: 'A',
              label: 'Variante A',
              share: 40,
              assigned: 400,
              sent: 400,
              viewed: 300,
              clicked: 40,
              conversions: 20,
              converted: 19,
              revenue: 1999.9,
              conversion_rate: 4.75,
              click_rate: 10,
            },
          ],
          against_control: [
            {
              arm: 'A',
              against: 'control',
              lift_pp: 1.75,
              ci_low_pp: -1.234567,
              ci_high_pp: 4.734567,
              p_value: 0.29876,
              significant: false,
              incremental_revenue: 799.9,
              verdict: 'Ainda sem diferença significativa: faltam cerca de 1.300 pessoas por grupo',
            },
          ],
          by_click_rate: [],
          daily: [],
          start: '2026-11-01',
          end: '2026-11-02',
        },
      ],
    });
    const tail = text.split('\r\n').slice(-8);
    expect(tail).toEqual([
      '"Teste A/B: Carrinho, teste"',
      'Grupo,Parcela (%),Pessoas,Enviadas,Visualizadas,Cliques,Conversões,Pessoas que converteram,Receita (R$),Taxa de conversão (%),Taxa de cliques (%)',
      'Grupo de controle,20,200,0,0,0,6,6,600.00,3,0',
      'Variante A,40,400,400,300,40,20,19,1999.90,4.75,10',
      '',
      'Contra o controle,Diferença (p.p.),IC 95 % de,IC 95 % até,Valor-p,Receita incremental (R$),Conclusão',
      'Variante A,1.75,-1.23,4.73,0.299,799.90,Ainda sem diferença significativa: faltam cerca de 1.300 pessoas por grupo',
      '',
    ]);
  });
});
