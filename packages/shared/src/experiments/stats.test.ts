import { describe, expect, it } from 'vitest';
import { compareProportions, normalCdf, personsStillNeeded, sampleSizePerGroup } from './stats.ts';
import { experimentVerdict } from './verdict.ts';

describe('normalCdf', () => {
  it('matches the standard normal table', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.959963984540054)).toBeCloseTo(0.975, 6);
    expect(normalCdf(-1.644853626951472)).toBeCloseTo(0.05, 6);
    expect(normalCdf(1)).toBeCloseTo(0.841344746, 6);
    expect(normalCdf(-3)).toBeCloseTo(0.001349898, 7);
  });
});

describe('compareProportions: textbook cases', () => {
  it('OpenStax Introductory Statistics, example 10.11 (hives: 20 of 200 against 12 of 200): z = 1.47, p = 0.1404', () => {
    const c = compareProportions({ successes: 20, trials: 200 }, { successes: 12, trials: 200 });
    expect(c.lift_pp).toBeCloseTo(4, 9);
    expect(c.p_value).toBeCloseTo(0.1404, 4);
    // Wald interval: 0.04 ± 1.96·√(0.1·0.9/200 + 0.06·0.94/200) = (−0.0130, 0.0930).
    expect(c.ci_low_pp).toBeCloseTo(-1.3028, 3);
    expect(c.ci_high_pp).toBeCloseTo(9.3028, 3);
    expect(c.significant).toBe(false);
  });

  it('15 % against 13.5 % of 10,000 each: p = 0.0024, interval 0.53 to 2.47 p.p., significant', () => {
    const c = compareProportions({ successes: 1500, trials: 10_000 }, { successes: 1350, trials: 10_000 });
    expect(c.lift_pp).toBeCloseTo(1.5, 9);
    expect(c.p_value).toBeCloseTo(0.002411, 5);
    expect(c.ci_low_pp).toBeCloseTo(0.5313, 3);
    expect(c.ci_high_pp).toBeCloseTo(2.4687, 3);
    expect(c.significant).toBe(true);
  });

  it('equal rates: p = 1 and an interval around zero; empty groups: no p-value', () => {
    const c = compareProportions({ successes: 30, trials: 1000 }, { successes: 30, trials: 1000 });
    expect(c.p_value).toBeCloseTo(1, 6);
    expect(c.ci_low_pp).toBeCloseTo(-1.4952, 3);
    expect(c.significant).toBe(false);
    expect(compareProportions({ successes: 0, trials: 0 }, { successes: 3, trials: 10 }).p_value).toBeNull();
    expect(compareProportions({ successes: 0, trials: 50 }, { successes: 0, trials: 50 }).p_value).toBeNull();
  });
});

describe('sampleSizePerGroup (Fleiss, α = 5 % two-sided, power 80 %, no continuity correction)', () => {
  it('5 % against 10 %: 435 per group; 20 % against 30 %: 294 per group', () => {
    expect(sampleSizePerGroup(0.05, 0.1)).toBe(435);
    expect(sampleSizePerGroup(0.2, 0.3)).toBe(294);
    expect(sampleSizePerGroup(0.1, 0.1)).toBeNull();
  });

  it('persons still needed: what the observed difference asks for, less what each group has, about', () => {
    // 10 % against 11 %: 14,751 per group; with 2,000 each, about 13,000 more.
    expect(personsStillNeeded({ successes: 220, trials: 2000 }, { successes: 200, trials: 2000 })).toBe(13_000);
    // No difference yet: planned for a tenth of the control's rate (3 % → 3.3 %).
    expect(personsStillNeeded({ successes: 3, trials: 100 }, { successes: 3, trials: 100 })).toBeGreaterThan(50_000);
    expect(personsStillNeeded({ successes: 0, trials: 100 }, { successes: 0, trials: 100 })).toBeNull();
  });
});

describe('experimentVerdict', () => {
  it('says how much more a significant variant converts, with its interval, in pt-BR numbers', () => {
    expect(
      experimentVerdict('A variante B', { successes: 1500, trials: 10_000 }, { successes: 1350, trials: 10_000 }),
    ).toBe('A variante B converte 1,5 p.p. a mais que o controle (IC 95 %: 0,5 a 2,5 p.p.)');
    expect(
      experimentVerdict('A variante A', { successes: 1350, trials: 10_000 }, { successes: 1500, trials: 10_000 }),
    ).toBe('A variante A converte 1,5 p.p. a menos que o controle (IC 95 %: -2,5 a -0,5 p.p.)');
  });

  it('says how many more persons per group are missing when not significant', () => {
    expect(experimentVerdict('A variante B', { successes: 220, trials: 2000 }, { successes: 200, trials: 2000 })).toBe(
      'Ainda sem diferença significativa: faltam cerca de 13.000 pessoas por grupo',
    );
    expect(experimentVerdict('A mensagem', { successes: 0, trials: 10 }, { successes: 0, trials: 10 })).toBe(
      'Ainda sem diferença significativa: ainda não há conversões para comparar',
    );
  });
});
