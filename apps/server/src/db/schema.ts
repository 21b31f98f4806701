import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

export const companies = pgTable('companies', {
  uuid: uuid('uuid').primaryKey(),
  name: text('name').notNull(),
  status: text('status', { enum: ['unfinished', 'active'] })
    .notNull()
    .default('unfinished'),
  timeZone: text('time_zone').notNull().default('America/Sao_Paulo'),
  /** The company form of doc 1 §3 (document, razao_social, endereco, …), null until it is first saved. */
  registration: jsonb('registration').$type<Record<string, unknown>>(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const users = pgTable(
  'users',
  {
    uuid: uuid('uuid').primaryKey(),
    companyUuid: uuid('company_uuid')
      .notNull()
      .references(() => companies.uuid, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role').notNull().default('admin'),
    validatedAt: ts('validated_at'),
    /** A new address asked for on /profile, in force once its mailed link is opened. */
    pendingEmail: text('pending_email'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_username_key').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`),
    index('users_company_idx').on(t.companyUuid),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userUuid: uuid('user_uuid')
      .notNull()
      .references(() => users.uuid, { onDelete: 'cascade' }),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    keepConnected: boolean('keep_connected').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** What /profile shows and ends a session by (the token hash never leaves the server). */
    id: uuid('id').notNull().defaultRandom(),
    userAgent: text('user_agent'),
    /** Kept at most once a minute per session (lib/sessions.ts). */
    lastUsedAt: ts('last_used_at'),
    /** Where the session signed in from, shown to its own user on /profile (issue #29): the address and its place. */
    ip: text('ip'),
    location: text('location'),
  },
  (t) => [index('sessions_user_idx').on(t.userUuid), uniqueIndex('sessions_id_key').on(t.id)],
);

export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    hash: text('hash').primaryKey(),
    userUuid: uuid('user_uuid')
      .notNull()
      .references(() => users.uuid, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['validate', 'reset', 'email'] }).notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('one_time_tokens_user_idx').on(t.userUuid)],
);

export const domains = pgTable(
  'domains',
  {
    uuid: uuid('uuid').primaryKey(),
    companyUuid: uuid('company_uuid')
      .notNull()
      .references(() => companies.uuid, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    domain: text('domain').notNull(),
    domainRoot: text('domain_root').notNull(),
    geroId: text('gero_id').notNull().unique(),
    geroValidate: boolean('gero_validate').notNull().default(false),
    geroVersion: text('gero_version').notNull(),
    cnSwVersion: text('cn_sw_version').notNull(),
    status: text('status', { enum: ['Active', 'Inactive'] })
      .notNull()
      .default('Active'),
    vapidPublic: text('vapid_public').notNull(),
    vapidPrivate: text('vapid_private').notNull(),
    /** A page view whose URL contains this text is a cart access (analytics); empty = none. */
    cartUrl: text('cart_url').notNull().default(''),
    /** Events older than this many months are purged by the daily retention job (LGPD: keep only what is needed). */
    retentionMonths: smallint('retention_months').notNull().default(13),
    /** The IANA zone whose days the analytics rollups count in (each company's own day). */
    timezone: text('timezone').notNull().default('America/Sao_Paulo'),
    /** At most this many messages per person per 24 h / 7 days across every channel; null = no cap. */
    frequencyCapDay: integer('frequency_cap_day'),
    frequencyCapWeek: integer('frequency_cap_week'),
    /** The global control group (issue #25): this % of the domain's persons receive no message at all (0–20). */
    controlGroupPercent: smallint('control_group_percent').notNull().default(0),
    /** Quiet hours (issue #27) in the visitor's local time: push, SMS and e-mail due inside wait for the end; null = off. */
    quietHours: jsonb('quiet_hours').$type<{ start: string; end: string }>(),
    /** The domain's own holidays (state, city) beside the national ones, YYYY-MM-DD (issue #27). */
    extraHolidays: jsonb('extra_holidays').$type<string[]>().notNull().default([]),
    createdAt: ts('created_at').notNull().defaultNow(),
    removedAt: ts('removed_at'),
  },
  (t) => [index('domains_company_idx').on(t.companyUuid)],
);

export const channels = pgTable(
  'channels',
  {
    uuid: uuid('uuid').primaryKey(),
    domainUuid: uuid('domain_uuid')
      .notNull()
      .references(() => domains.uuid, { onDelete: 'cascade' }),
    channelType: text('channel_type').notNull(),
    /** Non-secret properties (region, sender, source, client …), safe to show. */
    properties: jsonb('properties').$type<Record<string, string>>().notNull().default({}),
    /** Secret properties as AES-256-GCM ciphertext (lib/secret-box), never sent back to a browser. */
    secrets: text('secrets'),
    active: boolean('active').notNull().default(true),
    /** The provider refused the credentials (401/403 or its own code): shown in the dashboard until they are edited. */
    refusedAt: ts('refused_at'),
    refusedReason: text('refused_reason'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('channels_domain_type_key').on(t.domainUuid, t.channelType)],
);

export const media = pgTable(
  'media',
  {
    id: uuid('id').primaryKey(),
    domainUuid: uuid('domain_uuid')
      .notNull()
      .references(() => domains.uuid, { onDelete: 'cascade' }),
    /** Stored file name, `<uuid>.<ext>` by the detected type. */
    name: text('name').notNull(),
    originalName: text('original_name'),
    contentType: text('content_type').notNull(),
    bytes: integer('bytes').notNull(),
    storageKey: text('storage_key').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('media_domain_idx').on(t.domainUuid)],
);

/** A visitor of one domain. `attributes` holds the spec's `user_stored_data.*` keys, unprefixed and flat ('navigator.browser'). */
export const persons = pgTable(
  'persons',
  {
    uuid: uuid('uuid').primaryKey(),
    domainUuid: uuid('domain_uuid')
      .notNull()
      .references(() => domains.uuid, { onDelete: 'cascade' }),
    visitorId: text('visitor_id').notNull(),
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
    email: text('email'),
    phone: text('phone'),
    name: text('name'),
    pushSubscription: jsonb('push_subscription').$type<{ endpoint: string; keys: { p256dh: string; auth: string } }>(),
    pushStatus: text('push_status', { enum: ['subscribed', 'unsubscribed'] }),
    firstSeen: ts('first_seen').notNull().defaultNow(),
    lastSeen: ts('last_seen').notNull().defaultNow(),
    /** Uniform random 0–999 drawn at insert: a per-domain random sample for peopleImpacted on large bases. */
    sampleKey: smallint('sample_key').notNull().default(sql`floor(random() * 1000)`),
    /** The browser's IANA zone, as the tag last reported it (issue #27); null: unknown (geo city, then the domain's). */
    timezone: text('timezone'),
  },
  (t) => [
    uniqueIndex('persons_domain_visitor_key').on(t.domainUuid, t.visitorId),
    index('persons_domain_seen_idx').on(t.domainUuid, t.lastSeen),
    index('persons_domain_sample_idx').on(t.domainUuid, t.sampleKey),
    // Analytics' base by channel: counts per domain read from these indexes alone.
    index('persons_domain_first_seen_idx').on(t.domainUuid, t.firstSeen),
    index('persons_domain_push_idx').on(t.domainUuid).where(sql`push_status = 'subscribed'`),
    index('persons_domain_email_idx').on(t.domainUuid).where(sql`email IS NOT NULL`),
    index('persons_domain_phone_idx').on(t.domainUuid).where(sql`phone IS NOT NULL`),
  ],
);

/**
 * Partitioned by month of `ts` (migration 0013; drizzle-kit cannot declare it): `events_YYYY_MM` partitions created
 * ahead by the daily job and dropped whole by retention (db/partitions.ts), `events_default` for anything outside
 * them. The primary key carries `ts` because a partitioned table's unique keys must hold the partition key.
 */
export const events = pgTable(
  'events',
  {
    id: bigint('id', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    domainUuid: uuid('domain_uuid').notNull(),
    /** Null for the service worker's reports, which carry a delivery id instead of a visitor. */
    personUuid: uuid('person_uuid'),
    kind: text('kind', {
      enum: ['pageview', 'event', 'identify', 'optin', 'optout', 'viewed', 'clicked', 'conversion'],
    }).notNull(),
    url: text('url'),
    category: text('category'),
    props: jsonb('props').$type<Record<string, unknown>>(),
    device: text('device'),
    ts: ts('ts').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.ts] }),
    index('events_domain_ts_idx').on(t.domainUuid, t.ts),
    index('events_person_idx').on(t.personUuid),
  ],
);

export const eventCategories = pgTable(
  'event_categories',
  {
    uuid: uuid('uuid').primaryKey(),
    domainUuid: uuid('domain_uuid')
      .notNull()
      .references(() => domains.uuid, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    seenCount: bigint('seen_count', { mode: 'number' }).notNull().default(0),
  },
  (t) => [uniqueIndex('event_categories_domain_name_key').on(t.domainUuid, t.name)],
);

/** Keys and values seen per event category; feeds the trigger pickers. */
export const eventCatalog = pgTable(
  'event_catalog',
  {
    categoryUuid: uuid('category_uuid')
      .notNull()
      .references(() => eventCategories.uuid, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: text('value').notNull(),
    seenCount: bigint('seen_count', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.categoryUuid, t.key, t.value] })],
);

/** Daily counters per domain and dimension ('pageviews', 'page:<url>:mobile', 'optins' …), upserted at ingestion. */
export const dailyStats = pgTable(
  'daily_stats',
  {
    domainUuid: uuid('domain_uuid').notNull(),
    day: date('day').notNull(),
    dimension: text('dimension').notNull(),
    value: text('value').notNull().default(''),
    count: bigint('count', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.domainUuid, t.day, t.dimension, t.value] })],
);

export const dailyVisitors = pgTable(
  'daily_visitors',
  {
    domainUuid: uuid('domain_uuid').notNull(),
    day: date('day').notNull(),
    personUuid: uuid('person_uuid').notNull(),
  },
  (t) => [primaryKey({ columns: [t.domainUuid, t.day, t.personUuid] })],
);

/** Distinct visitors per day and event category: a first sighting bumps daily_stats 'event_visitors'. */
export const dailyEventVisitors = pgTable(
  'daily_event_visitors',
  {
    domainUuid: uuid('domain_uuid').notNull(),
    day: date('day').notNull(),
    category: text('category').notNull(),
    personUuid: uuid('person_uuid').notNull(),
  },
  (t) => [primaryKey({ columns: [t.domainUuid, t.day, t.category, t.personUuid] })],
);

/**
 * Distinct visitors per domain, day and dimension ('visitors', 'visitors_device' per device, 'event_visitors' per
 * category) as a mergeable sketch, so a range counts a visitor once however many of its days they came
 * (modules/analytics/visitor-sketch.ts). Exact while small: `hashes` holds the visitors' 64-bit hashes (SQL
 * `visitor_hash(person_uuid)`, up to SKETCH_EXACT_MAX); past that `registers` holds a HyperLogLog of 2^14 one-byte
 * registers and `hashes` is null. Merged by the rollups stage in the batch's transaction (SQL `sketch_union`,
 * `sketch_registers`, migration 0014), merged again over a range at query time.
 */
export const dailySketches = pgTable(
  'daily_sketches',
  {
    domainUuid: uuid('domain_uuid').notNull(),
    day: date('day').notNull(),
    dimension: text('dimension').notNull(),
    value: text('value').notNull().default(''),
    hashes: bigint('hashes', { mode: 'bigint' }).array(),
    registers: bytea('registers'),
  },
  (t) => [primaryKey({ columns: [t.domainUuid, t.dimension, t.day, t.value] })],
);

/**
 * The base by channel, kept as persons change (analytics' base/channel reads it instead of counting persons): per
 * domain and day of first sighting (in the domain's time zone), the persons reachable on site (all), by push
 * (subscribed), e-mail and SMS (an address or a number). Triggers on persons (migration 0015) append each statement's
 * changes to `base_changes`, folded into these rows when the transaction commits (a deferred trigger), so the
 * counter rows are locked only at commit.
 */
export const baseDaily = pgTable(
  'base_daily',
  {
    domainUuid: uuid('domain_uuid').notNull(),
    day: date('day').notNull(),
    onsite: bigint('onsite', { mode: 'number' }).notNull().default(0),
    push: bigint('push', { mode: 'number' }).notNull().default(0),
    email: bigint('email', { mode: 'number' }).notNull().default(0),
    sms: bigint('sms', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.domainUuid, t.day] })],
);

/** Changes to base_daily not yet folded: rows live only inside the transaction that made them (migration 0015). */
export const baseChanges = pgTable('base_changes', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  domainUuid: uuid('domain_uuid').notNull(),
  day: date('day').notNull(),
  onsite: bigint('onsite', { mode: 'number' }).notNull(),
  push: bigint('push', { mode: 'number' }).notNull(),
  email: bigint('email', { mode: 'number' }).notNull(),
  sms: bigint('sms', { mode: 'number' }).notNull(),
});

export const momentums = pgTable(
  'momentums',
  {
    uuid: uuid('uuid').primaryKey(),
    companyUuid: uuid('company_uuid')
      .notNull()
      .references(() => companies.uuid, { onDelete: 'cascade' }),
    domainUuid: uuid('domain_uuid')
      .notNull()
      .references(() => domains.uuid, { onDelete: 'cascade' }),
    userUuid: uuid('user_uuid').notNull(),
    type: text('type', { enum: ['momentum', 'campaign', 'dcm'] }).notNull(),
    title: text('momentum_title').notNull(),
    description: text('momentum_description'),
    status: text('status', { enum: ['Active', 'Paused', 'Draft', 'Deleted', 'Done'] }).notNull(),
    scheduledAt: ts('scheduled_at'),
    channelUuid: uuid('channel_uuid'),
    blocks: jsonb('momentums').$type<unknown[]>().notNull().default([]),
    worktime: jsonb('worktime').$type<Record<string, unknown>>(),
    /** A/B variants and control group (issue #25, packages/shared experiment.schema.ts); null: the spec's momentum. */
    experiment: jsonb('experiment').$type<Record<string, unknown>>(),
    /**
     * Send the winner (issue #25, engine/winner-decision.ts): { planned_at } once the test share went out, then
     * { decided_at, metric, winner, rates, rest }; null otherwise.
     */
    experimentDecision: jsonb('experiment_decision').$type<Record<string, unknown>>(),
    /**
     * Timing options (issue #27, packages/shared momentum-timing.schema.ts): throttle, local time, best time, holidays,
     * worktime zone; null: the spec's momentum.
     */
    timing: jsonb('timing').$type<Record<string, unknown>>(),
    /** Follow-up steps of a journey (issue #26, packages/shared journey.schema.ts); null or []: one message. */
    steps: jsonb('steps').$type<unknown[]>(),
    /** The journey's exit rules (issue #26); null: leave on conversion. */
    journeyExit: jsonb('journey_exit').$type<Record<string, unknown>>(),
    activatedAt: ts('activated_at'),
    finishedAt: ts('finished_at'),
    /** Bumped on every change so the engine's matchers know to rebuild. */
    version: integer('version').notNull().default(1),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('momentums_domain_type_idx').on(t.domainUuid, t.type, t.status)],
);

export const DELIVERY_STATUSES = [
  'queued',
  'sending',
  'sent',
  'viewed',
  'clicked',
  'failed',
  'expired',
  'cancelled',
  /** Not sent on purpose: no contact data, opted out, over the frequency cap. `error` says why. */
  'skipped',
] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One message to one person for one occurrence of a momentum (DESIGN.md §10). The table is also the send
 * queue: workers claim due `queued` rows with FOR UPDATE SKIP LOCKED; `dedupe_key` makes every step idempotent.
 */
export const deliveries = pgTable(
  'deliveries',
  {
    id: uuid('id').primaryKey(),
    domainUuid: uuid('domain_uuid').notNull(),
    momentumUuid: uuid('momentum_uuid')
      .notNull()
      .references(() => momentums.uuid, { onDelete: 'cascade' }),
    /** Null once the person was erased (LGPD): the delivery stays counted in its momentum's figures, unlinked. */
    personUuid: uuid('person_uuid').references(() => persons.uuid, { onDelete: 'set null' }),
    channelType: text('channel_type').notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    status: text('status', { enum: DELIVERY_STATUSES }).notNull().default('queued'),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    /** When the trigger happened (abandon checks look for the goal page after it). */
    triggerAt: ts('trigger_at').notNull(),
    dueAt: ts('due_at').notNull(),
    lockedAt: ts('locked_at'),
    sentAt: ts('sent_at'),
    viewedAt: ts('viewed_at'),
    clickedAt: ts('clicked_at'),
    /** The first cart access attributed to this delivery (counted once). */
    cartAt: ts('cart_at'),
    /** The experiment arm (engine/arm.ts): 'control', a variant's name, 'global'; null without an experiment. */
    arm: text('arm'),
    /** The journey step (issue #26): 0 is the momentum's message, i ≥ 1 the follow-up step i. */
    step: integer('step').notNull().default(0),
    /** 'otherwise' for a split step's other message; null: the step's main message. */
    branch: text('branch', { enum: ['otherwise'] }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('deliveries_dedupe_key').on(t.dedupeKey),
    index('deliveries_due_idx').on(t.dueAt).where(sql`status = 'queued'`),
    index('deliveries_sending_idx').on(t.lockedAt).where(sql`status = 'sending'`),
    index('deliveries_momentum_person_idx').on(t.momentumUuid, t.personUuid),
    index('deliveries_person_idx').on(t.personUuid),
    /** The frequency cap counts a person's recent sends (and reservations) across momentums and channels. */
    index('deliveries_person_sent_idx').on(t.personUuid, t.sentAt).where(sql`sent_at IS NOT NULL`),
  ],
);

export const JOURNEY_STATES = ['waiting', 'running', 'done', 'left', 'exited'] as const;

/**
 * A person's position in a momentum's journey (issue #26, engine/journey.ts): the next step to run and when. Claimed
 * like deliveries (waiting → running under a lease the sweeper hands back); one active (waiting or running) row per
 * (momentum, person). Ended rows stay: the journey report counts who left, exited and finished at which step.
 */
export const journeyPositions = pgTable(
  'journey_positions',
  {
    id: uuid('id').primaryKey(),
    domainUuid: uuid('domain_uuid').notNull(),
    momentumUuid: uuid('momentum_uuid')
      .notNull()
      .references(() => momentums.uuid, { onDelete: 'cascade' }),
    personUuid: uuid('person_uuid')
      .notNull()
      .references(() => persons.uuid, { onDelete: 'cascade' }),
    /** The next step to run, 1..n (for an ended row: the step it ended at). */
    step: integer('step').notNull(),
    dueAt: ts('due_at').notNull(),
    state: text('state', { enum: JOURNEY_STATES }).notNull().default('waiting'),
    /** Why it ended (journeyMessages.leftByCondition, exited*). */
    reason: text('reason'),
    enteredAt: ts('entered_at').notNull(),
    /** Start of the "since the previous step" window the step's condition reads. */
    sinceAt: ts('since_at').notNull(),
    lockedAt: ts('locked_at'),
    attempts: integer('attempts').notNull().default(0),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('journey_positions_active_key')
      .on(t.momentumUuid, t.personUuid)
      .where(sql`state IN ('waiting', 'running')`),
    index('journey_positions_due_idx').on(t.dueAt).where(sql`state = 'waiting'`),
    index('journey_positions_running_idx').on(t.lockedAt).where(sql`state = 'running'`),
    index('journey_positions_person_idx').on(t.personUuid).where(sql`state = 'waiting'`),
    index('journey_positions_momentum_idx').on(t.momentumUuid, t.step),
  ],
);

/** On-site messages waiting for the tag's next collect or poll. */
export const onsiteQueue = pgTable(
  'onsite_queue',
  {
    deliveryId: uuid('delivery_id')
      .primaryKey()
      .references(() => deliveries.id, { onDelete: 'cascade' }),
    domainUuid: uuid('domain_uuid').notNull(),
    personUuid: uuid('person_uuid').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    expiresAt: ts('expires_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('onsite_queue_person_idx').on(t.personUuid)],
);

/**
 * The collector's spool segments whose batch is being stored (modules/collect/spool.ts): marked in the batch's own
 * transaction, so a segment replayed after a crash between the commit and the file's removal is not stored twice.
 * Marks are deleted with the next batch; the table holds only the batches in flight.
 */
export const ingestBatches = pgTable('ingest_batches', {
  id: uuid('id').primaryKey(),
  storedAt: timestamp('stored_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Per momentum and local day: deliveries sent, viewed and clicked (counted once, at the transition), and the
 * conversions and cart accesses attributed to its deliveries. The analytics widgets read these, never deliveries.
 */
export const dailyMomentumStats = pgTable(
  'daily_momentum_stats',
  {
    momentumUuid: uuid('momentum_uuid').notNull(),
    day: date('day').notNull(),
    domainUuid: uuid('domain_uuid').notNull(),
    sent: bigint('sent', { mode: 'number' }).notNull().default(0),
    viewed: bigint('viewed', { mode: 'number' }).notNull().default(0),
    clicked: bigint('clicked', { mode: 'number' }).notNull().default(0),
    conversions: bigint('conversions', { mode: 'number' }).notNull().default(0),
    revenueCents: bigint('revenue_cents', { mode: 'number' }).notNull().default(0),
    cartAccesses: bigint('cart_accesses', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.momentumUuid, t.day] }),
    index('daily_momentum_stats_domain_day_idx').on(t.domainUuid, t.day),
  ],
);

/**
 * Who is in which arm of a momentum's experiment (issue #25): written by the send stage at a person's first arm
 * decision (first_at, when the message went out or would have) and moved at each later one (last_at); attribution
 * credits a person's conversions from first_at to the click window after last_at to the arm. Goes with the person.
 */
export const experimentAssignments = pgTable(
  'experiment_assignments',
  {
    momentumUuid: uuid('momentum_uuid')
      .notNull()
      .references(() => momentums.uuid, { onDelete: 'cascade' }),
    personUuid: uuid('person_uuid')
      .notNull()
      .references(() => persons.uuid, { onDelete: 'cascade' }),
    domainUuid: uuid('domain_uuid').notNull(),
    arm: text('arm').notNull(),
    firstAt: ts('first_at').notNull(),
    lastAt: ts('last_at').notNull(),
    convertedAt: ts('converted_at'),
  },
  (t) => [
    primaryKey({ columns: [t.momentumUuid, t.personUuid] }),
    index('experiment_assignments_person_idx').on(t.personUuid, t.lastAt),
  ],
);

/**
 * Per momentum, arm and local day (issue #25), beside daily_momentum_stats: persons assigned (once each), sent,
 * viewed, clicked, conversions, persons converted (once each) and revenue. The experiment report reads these.
 */
export const dailyArmStats = pgTable(
  'daily_arm_stats',
  {
    momentumUuid: uuid('momentum_uuid').notNull(),
    day: date('day').notNull(),
    arm: text('arm').notNull(),
    domainUuid: uuid('domain_uuid').notNull(),
    assigned: bigint('assigned', { mode: 'number' }).notNull().default(0),
    sent: bigint('sent', { mode: 'number' }).notNull().default(0),
    viewed: bigint('viewed', { mode: 'number' }).notNull().default(0),
    clicked: bigint('clicked', { mode: 'number' }).notNull().default(0),
    conversions: bigint('conversions', { mode: 'number' }).notNull().default(0),
    converted: bigint('converted', { mode: 'number' }).notNull().default(0),
    revenueCents: bigint('revenue_cents', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.momentumUuid, t.day, t.arm] })],
);

/**
 * One row per conversion: `order_key` is the order_id the site sent (or `event:<id>` without one), unique per
 * domain so a repeated order counts once. `delivery_id` is the delivery it was attributed to, if any.
 */
export const conversions = pgTable(
  'conversions',
  {
    domainUuid: uuid('domain_uuid').notNull(),
    orderKey: text('order_key').notNull(),
    personUuid: uuid('person_uuid'),
    eventId: bigint('event_id', { mode: 'number' }),
    valueCents: bigint('value_cents', { mode: 'number' }).notNull().default(0),
    deliveryId: uuid('delivery_id'),
    momentumUuid: uuid('momentum_uuid'),
    ts: ts('ts').notNull(),
  },
  (t) => [primaryKey({ columns: [t.domainUuid, t.orderKey] }), index('conversions_person_idx').on(t.personUuid)],
);

/**
 * Per GCD item (a `dcm` momentum): counters the tag's reports bump where the collector stores events (shown,
 * clicked), and the last page where its selector matched nothing for 10 s (cleared by a later showing).
 * The list API reads one row per item instead of scanning events.
 */
export const dcmStats = pgTable('dcm_stats', {
  momentumUuid: uuid('momentum_uuid')
    .primaryKey()
    .references(() => momentums.uuid, { onDelete: 'cascade' }),
  domainUuid: uuid('domain_uuid').notNull(),
  shown: bigint('shown', { mode: 'number' }).notNull().default(0),
  clicked: bigint('clicked', { mode: 'number' }).notNull().default(0),
  missingPage: text('missing_page'),
  missingAt: ts('missing_at'),
});

/**
 * Erased visitors, for a while: requests the collector accepted before the erasure and stores after it (still in a
 * spool or in another process's memory) are dropped instead of bringing the person back. Only a hash of the visitor
 * id is kept, and the retention job deletes the rows after ERASURE_MEMORY_DAYS.
 */
export const personErasures = pgTable(
  'person_erasures',
  {
    domainUuid: uuid('domain_uuid')
      .notNull()
      .references(() => domains.uuid, { onDelete: 'cascade' }),
    visitorHash: text('visitor_hash').notNull(),
    erasedAt: ts('erased_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.domainUuid, t.visitorHash] })],
);
