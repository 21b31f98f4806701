/*
 * Who is in which arm of an experiment: a pure, zod-free function of the person and the momentum (the global control
 * group: of the person and the domain), so the engine at delivery time, the simulator and any worker or restart
 * agree without storing anything first. The hash is MurmurHash3 (x86, 32 bits) over the UTF-16 code units of
 * '<person>:<scope>', the same in Node and in browsers, well spread for ids that differ in one character.
 *
 * The engine passes the person's uuid. GCD items (type 'dcm') are drawn in the browser by the tag's injector
 * (packages/tracker/src/dcm.ts imports these functions), which knows only the visitor id (persons.visitor_id), so for
 * them `personId` is the visitor id; the collector records the arm the tag reports for that visitor's person. The
 * domain's global group stays the engine's draw over the person's uuid: the server answers it to the tag (GET
 * /collect/dcm `g: 1`), so GCD items hold out the same persons as every momentum.
 */

export const CONTROL_ARM = 'control';
/** The arm recorded on a delivery held out by the domain's global control group. */
export const GLOBAL_CONTROL_ARM = 'global';

export interface ArmShares {
  /** Persons held out of this momentum, 0–50 (%). */
  control_percent: number;
  /** The variants and their shares of the persons not held out (% adding up to 100); empty: one message. */
  variants: readonly { name: string; weight: number }[];
}

/** The first variant's name when an experiment has no variants (a control group alone). */
export const SINGLE_ARM = 'A';

function murmur3(text: string, seed: number): number {
  let h = seed >>> 0;
  const units = text.length;
  const blocks = units >> 1;
  const mix = (k: number) => {
    let x = Math.imul(k, 0xcc9e2d51);
    x = (x << 15) | (x >>> 17);
    return Math.imul(x, 0x1b873593);
  };
  for (let i = 0; i < blocks; i++) {
    const k = text.charCodeAt(2 * i) | (text.charCodeAt(2 * i + 1) << 16);
    h ^= mix(k);
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  if (units & 1) h ^= mix(text.charCodeAt(units - 1));
  h ^= units * 2;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A stable point in [0, 1) for a person within a scope (a momentum, a domain's global group). */
export function stableUnit(personId: string, scope: string): number {
  return murmur3(`${personId}:${scope}`, 0x1d_5e_a5_ed) / 0x1_0000_0000;
}

/**
 * The arm of a person in a momentum's experiment: 'control' for the control group's share, else a variant's name
 * by the variants' weights ('A' when the experiment has no variants). Null without an experiment.
 */
export function assignArm(personId: string, momentumUuid: string, experiment: ArmShares | null | undefined) {
  if (!experiment) return null;
  const u = stableUnit(personId, momentumUuid);
  const control = Math.min(Math.max(experiment.control_percent, 0), 100) / 100;
  if (u < control) return CONTROL_ARM;
  const { variants } = experiment;
  if (variants.length === 0) return SINGLE_ARM;
  const total = variants.reduce((sum, v) => sum + v.weight, 0);
  // The rest of the unit interval, stretched back to [0, 1), is split by the weights.
  const v = ((u - control) / (1 - control)) * total;
  let upTo = 0;
  for (const variant of variants) {
    upTo += variant.weight;
    if (v < upTo) return variant.name;
  }
  return variants[variants.length - 1]?.name ?? SINGLE_ARM;
}

/**
 * Whether a person is in the test share of a campaign that sends the winner to the rest (`percent` % of its
 * audience, 5–50): a stable choice of person and momentum on a scope of its own, independent of the arm (a person's
 * variant and whether they are tested are two separate draws), so each variant's test persons are a fair sample.
 */
export function inTestShare(personId: string, momentumUuid: string, percent: number): boolean {
  return stableUnit(personId, `test:${momentumUuid}`) < percent / 100;
}

/**
 * Whether a person is in the domain's global control group (0–20 % of its persons receive nothing from any momentum
 * or campaign). Independent of every momentum's own assignment: another scope, another hash.
 */
export function inGlobalControl(personId: string, domainUuid: string, percent: number | null | undefined): boolean {
  if (!percent || percent <= 0) return false;
  return stableUnit(personId, `global:${domainUuid}`) < percent / 100;
}
