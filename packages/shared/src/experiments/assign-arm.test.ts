import { describe, expect, it } from 'vitest';
import { assignArm, CONTROL_ARM, inGlobalControl, inTestShare, stableUnit } from './assign-arm.ts';

/** 100,000 version-4 UUIDs from a seeded generator (xorshift32), the same each run. */
function personIds(n: number, seed = 0x9e3779b9): string[] {
  let s = seed >>> 0;
  const next = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
  const hex = (k: number) => Array.from({ length: k }, () => (next() & 15).toString(16)).join('');
  return Array.from({ length: n }, () => `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[next() & 3]}${hex(3)}-${hex(12)}`);
}

const ids = personIds(100_000);
const momentum = '6f1c2a5e-8d3b-4c1e-9a7f-2b5d8e4c1a90';
const otherMomentum = '0b7e4d2c-1f9a-4e3b-8c6d-5a2f9e1b7c43';
const domain = 'c3d9e1f4-7a2b-4c8d-9e5f-1a6b3c8d2e7f';

/** Pearson's chi-square of observed counts against expected ones. */
const chiSquare = (observed: number[], expected: number[]) =>
  observed.reduce((sum, o, i) => sum + (o - (expected[i] ?? 0)) ** 2 / (expected[i] ?? 1), 0);

describe('assignArm on 100,000 generated person ids', () => {
  it('spreads the stable point uniformly over 100 buckets (chi-square, 99 df, below the 0.1 % critical value)', () => {
    const buckets = new Array(100).fill(0);
    for (const id of ids) buckets[Math.floor(stableUnit(id, momentum) * 100)]++;
    // The 99.9th percentile of chi-square with 99 degrees of freedom is 148.23.
    expect(chiSquare(buckets, new Array(100).fill(1000))).toBeLessThan(148.23);
  });

  it('spreads sequential visitor ids (visitor-1 … visitor-100000) uniformly too', () => {
    const buckets = new Array(100).fill(0);
    for (let i = 1; i <= 100_000; i++) buckets[Math.floor(stableUnit(`visitor-${i}`, momentum) * 100)] += 1;
    expect(chiSquare(buckets, new Array(100).fill(1000))).toBeLessThan(148.23);
  });

  it('gives each arm its share: 20 % control, then A/B 50/50 of the rest (chi-square, 2 df)', () => {
    const experiment = {
      control_percent: 20,
      variants: [
        { name: 'A', weight: 50 },
        { name: 'B', weight: 50 },
      ],
    };
    const counts = new Map<string, number>();
    for (const id of ids) {
      const arm = assignArm(id, momentum, experiment) ?? 'none';
      counts.set(arm, (counts.get(arm) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual(['A', 'B', CONTROL_ARM]);
    const observed = [counts.get(CONTROL_ARM) ?? 0, counts.get('A') ?? 0, counts.get('B') ?? 0];
    // 13.82: the 99.9th percentile with 2 degrees of freedom.
    expect(chiSquare(observed, [20_000, 40_000, 40_000])).toBeLessThan(13.82);
  });

  it('follows uneven weights of five variants without a control group', () => {
    const weights = [10, 15, 20, 25, 30];
    const experiment = {
      control_percent: 0,
      variants: weights.map((weight, i) => ({ name: 'ABCDE'.charAt(i), weight })),
    };
    const counts = new Map<string, number>();
    for (const id of ids) {
      const arm = assignArm(id, momentum, experiment) as string;
      counts.set(arm, (counts.get(arm) ?? 0) + 1);
    }
    expect(counts.has(CONTROL_ARM)).toBe(false);
    const observed = [...'ABCDE'].map((n) => counts.get(n) ?? 0);
    // 18.47: the 99.9th percentile with 4 degrees of freedom.
    expect(
      chiSquare(
        observed,
        weights.map((w) => w * 1000),
      ),
    ).toBeLessThan(18.47);
  });

  it('is stable: the same person and momentum give the same arm every time, and pinned values never change', () => {
    const experiment = {
      control_percent: 30,
      variants: [
        { name: 'A', weight: 50 },
        { name: 'B', weight: 50 },
      ],
    };
    const first = ids.slice(0, 1000).map((id) => assignArm(id, momentum, experiment));
    const again = ids.slice(0, 1000).map((id) => assignArm(id, momentum, { ...experiment }));
    expect(again).toEqual(first);
    // Arms are recorded on deliveries: a change of hash would move persons between arms mid-experiment.
    expect(stableUnit('visitor-1', momentum)).toBe(PINNED.visitor1);
    expect(stableUnit(PINNED.person, momentum)).toBe(PINNED.person1);
    expect(stableUnit(PINNED.person, `global:${domain}`)).toBe(PINNED.personGlobal);
  });

  it('draws each momentum independently: control of one says nothing about control of another', () => {
    const experiment = { control_percent: 50, variants: [] };
    const table = [0, 0, 0, 0];
    for (const id of ids) {
      const a = assignArm(id, momentum, experiment) === CONTROL_ARM ? 1 : 0;
      const b = assignArm(id, otherMomentum, experiment) === CONTROL_ARM ? 1 : 0;
      table[a * 2 + b] = (table[a * 2 + b] ?? 0) + 1;
    }
    // Independence in a 2×2 table: 10.83 is the 99.9th percentile with 1 degree of freedom.
    expect(chiSquare(table, [25_000, 25_000, 25_000, 25_000])).toBeLessThan(10.83);
  });

  it('is null without an experiment and A for a control group alone', () => {
    expect(assignArm(PINNED.person, momentum, null)).toBeNull();
    const arms = new Set(
      ids.slice(0, 2000).map((id) => assignArm(id, momentum, { control_percent: 10, variants: [] })),
    );
    expect([...arms].sort()).toEqual(['A', CONTROL_ARM]);
  });
});

describe('inGlobalControl', () => {
  it('holds out its share of the domain, independently of every momentum', () => {
    const held = ids.filter((id) => inGlobalControl(id, domain, 10));
    expect(Math.abs(held.length - 10_000)).toBeLessThan(400);
    const inMomentumControl = held.filter(
      (id) => assignArm(id, momentum, { control_percent: 20, variants: [] }) === CONTROL_ARM,
    ).length;
    expect(Math.abs(inMomentumControl / held.length - 0.2)).toBeLessThan(0.02);
  });

  it('holds out no one at 0 % and the same persons at every call', () => {
    expect(ids.some((id) => inGlobalControl(id, domain, 0))).toBe(false);
    expect(ids.slice(0, 5000).filter((id) => inGlobalControl(id, domain, 20))).toEqual(
      ids.slice(0, 5000).filter((id) => inGlobalControl(id, domain, 20)),
    );
    // Raising the share keeps those held out at the lower one.
    const at5 = ids.slice(0, 5000).filter((id) => inGlobalControl(id, domain, 5));
    expect(at5.every((id) => inGlobalControl(id, domain, 15))).toBe(true);
  });
});

describe('inTestShare (send the winner)', () => {
  it('puts its share of the audience in the test, the same persons at every call, more at a larger share', () => {
    const tested = ids.filter((id) => inTestShare(id, momentum, 20));
    expect(Math.abs(tested.length - 20_000)).toBeLessThan(600);
    const first = new Set(ids.slice(0, 5000));
    expect(ids.slice(0, 5000).filter((id) => inTestShare(id, momentum, 20))).toEqual(
      tested.filter((id) => first.has(id)),
    );
    const at10 = ids.slice(0, 5000).filter((id) => inTestShare(id, momentum, 10));
    expect(at10.every((id) => inTestShare(id, momentum, 30))).toBe(true);
    // Another campaign tests other persons.
    const elsewhere = tested.filter((id) => inTestShare(id, otherMomentum, 20)).length;
    expect(Math.abs(elsewhere / tested.length - 0.2)).toBeLessThan(0.02);
  });

  it("is independent of the arm: each variant's share of the tested persons is its weight", () => {
    const experiment = {
      control_percent: 10,
      variants: [
        { name: 'A', weight: 50 },
        { name: 'B', weight: 50 },
      ],
    };
    const tested = ids.filter((id) => inTestShare(id, momentum, 20));
    const share = (arm: string) =>
      tested.filter((id) => assignArm(id, momentum, experiment) === arm).length / tested.length;
    expect(Math.abs(share(CONTROL_ARM) - 0.1)).toBeLessThan(0.01);
    expect(Math.abs(share('A') - 0.45)).toBeLessThan(0.015);
    expect(Math.abs(share('B') - 0.45)).toBeLessThan(0.015);
  });
});

const PINNED = {
  visitor1: 0.266680148197338,
  person: '9ea5f70f-98e4-43c8-baed-ffe82c9ae146',
  person1: 0.24320229631848633,
  personGlobal: 0.7164942647796124,
};
