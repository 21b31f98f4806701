import type { WireCondition } from '../filter/predicate.ts';

// What the tag's GCD injector receives for each active GCD item of its domain (GET /t/dcm/<gero_id>), built by
// apps/server/src/modules/dcm/dcm.rules.ts from the item's blocks, and what the list API adds to each GCD item.

export interface DcmTrigger {
  /** pageview: the page address against `v`; events: a gero('event') of a category in `c`; always: every page. */
  k: 'pageview' | 'events' | 'always';
  op: string;
  v: string[];
  /** `v` are portable regex sources. */
  re?: boolean;
  c?: string[];
  key?: string;
  /** Seconds between the trigger and the insertion (dischargeIn). */
  d: number;
}

export interface DcmRule {
  id: string;
  /** Audience filter (empty: everyone). */
  f: WireCondition[];
  g: DcmTrigger;
  /** Worktime: local weekdays, start and stop minutes, the company's time zone. */
  w?: { d: number[]; s: number; e: number; tz: string };
  /** html: customHtml/Css/Js at the selector; optin: the tag's opt-in model; template: an on-site template. */
  kind: 'html' | 'optin' | 'template';
  /** htmlElement: where to insert (html), or what the page must have (optin, template). */
  sel?: string;
  at?: 'beforeend' | 'afterbegin' | 'replace';
  /** containHtmlElement / containText (READINGS A-44): the page must have the element and contain the text. */
  ce?: string;
  ct?: string;
  html?: string;
  css?: string;
  /** customJs: only on the company's verified domain (gero_validate). */
  js?: string;
  /** Unverified domain: the tag strips scripts and event-handler attributes from `html`. */
  safe?: boolean;
  /** Seconds before the content goes (timeout); absent: it stays. */
  to?: number;
  /** At most this many showings per visitor (recurrence); absent: no limit. */
  n?: number;
  optin?: 'default' | 'topbox';
  /** The Topbox's title and message when the item gives them (else the tag's own). */
  texts?: { title?: string; message?: string };
  /** An on-site message (packages/tracker/src/onsite.ts): alert → alert_box, topbar → topbar, image → notification_box. */
  tpl?: { type: string; mode?: string; props: Record<string, string> };
  /** The item's A/B test (issue #25), absent without one. */
  x?: DcmExperiment;
}

/**
 * A GCD item's experiment as the injector reads it: the injector draws the visitor's arm with the shared assignArm
 * over the visitor id (the tag does not know the person's uuid), shows the arm's variant, or nothing to a held-out
 * visitor (then it reports k 'held'), and reports the arm with every showing and click. The domain's global control
 * group is the engine's own draw (inGlobalControl over the person's uuid), which GET /collect/dcm answers as `g: 1`.
 */
export interface DcmExperiment {
  /** The item's control group, 0–50 %. */
  c: number;
  /** Each variant: its name, weight (%) and what of the rule it changes (the content of its CELL_DCM values). */
  v: { n: string; w: number; r: Partial<DcmRule> }[];
}

/** The first tag release whose GCD injector honours A/B tests (a domain on an older one shows variant A to all). */
export const DCM_EXPERIMENTS_SINCE = '1.7.0';

/** Whether a tag release honours GCD A/B tests. */
export const tagHonoursDcmExperiments = (version: string) =>
  version.localeCompare(DCM_EXPERIMENTS_SINCE, undefined, { numeric: true }) >= 0;

/** Per GCD item in GET /api/momentum/list/:domain?type=dcm. */
export interface DcmStats {
  shown: number;
  clicked: number;
  /** The last page where the selector matched nothing for 10 s, until a later showing. */
  missing: { page: string; last_seen: string } | null;
}
