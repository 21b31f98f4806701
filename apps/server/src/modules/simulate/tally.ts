import { SIMULATION_STAGES, type SimulationResult, type SimulationSample, type SimulationStage } from '@impeto/shared';

/*
 * What a simulation counts: every planned send enters the funnel at the trigger and either goes out or is removed
 * by one stage; distinct people reached, overall and per day (the domain's time zone); and a sample of 20 people,
 * up to 10 who would have received the message and the others where their first planned send stopped.
 */

const SAMPLE_SIZE = 20;
const SAMPLE_SENT = 10;
/** Persons given a recipient (kept whole while the replay runs) before the sample stops taking new ones. */
const MAX_OFFERED = 200;

export interface Recipient {
  recipient: string;
}

const dayFormat = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone });

export function createTally(input: {
  timeZone: string;
  from: Date;
  to: Date;
  channel: string | null;
  message: string | null;
  /** The momentum has journey steps: the funnel lists their stage. */
  journey?: boolean;
}) {
  const removed = new Map<SimulationStage, number>(SIMULATION_STAGES.map((s) => [s, 0]));
  const byDay = new Map<string, number>();
  const byChannel = new Map<string, number>();
  const format = dayFormat(input.timeZone);
  /** The day of an instant, remembered per quarter hour (every zone's offset is a multiple of 15 minutes). */
  const days = new Map<number, string>();
  const dayOf = (at: Date) => {
    const quarter = Math.floor(at.getTime() / 900_000);
    let day = days.get(quarter);
    if (day === undefined) {
      day = format.format(at);
      days.set(quarter, day);
    }
    return day;
  };
  let entered = 0;
  let messages = 0;
  let persons = 0;
  const sent: SimulationSample[] = [];
  const stopped: SimulationSample[] = [];
  const sampled = new Set<string>();
  let offered = 0;

  return {
    dayOf,
    /** A planned send entered the funnel (a trigger, an occurrence). */
    enter(n = 1) {
      entered += n;
    },
    /** Are samples still taken? (The first persons met, up to a few hundred, are given a recipient.) */
    wantsSamples: () => (sent.length < SAMPLE_SIZE || stopped.length < SAMPLE_SIZE) && ++offered <= MAX_OFFERED,
    /** A planned send was removed at `stage` (`count` of the person's, all for the same reason, the first at `at`). */
    removed(
      stage: SimulationStage,
      personUuid: string,
      who: Recipient | undefined,
      reason: string,
      at: Date,
      count = 1,
    ) {
      removed.set(stage, removed.get(stage)! + count);
      if (!who || stopped.length >= SAMPLE_SIZE || sampled.has(personUuid)) return;
      sampled.add(personUuid);
      stopped.push({ recipient: who.recipient, stage, reason, at: at.toISOString(), message: null });
    },
    /**
     * A message went out. `firstToday`: the person had none yet that day; `firstEver`: none yet at all (the
     * caller knows the person's history).
     */
    sent(
      personUuid: string,
      who: Recipient | undefined,
      at: Date,
      firstToday: boolean,
      firstEver: boolean,
      channel = input.channel,
    ) {
      messages++;
      if (channel) byChannel.set(channel, (byChannel.get(channel) ?? 0) + 1);
      if (firstEver) persons++;
      if (firstToday) {
        const day = dayOf(at);
        byDay.set(day, (byDay.get(day) ?? 0) + 1);
      }
      if (!who || sent.length >= SAMPLE_SIZE || sampled.has(personUuid)) return;
      sampled.add(personUuid);
      sent.push({
        recipient: who.recipient,
        stage: 'sent',
        reason: null,
        at: at.toISOString(),
        message: input.message,
      });
    },
    result(tookMs: number): SimulationResult {
      const stages: SimulationResult['stages'] = [];
      let inStage = entered;
      for (const stage of SIMULATION_STAGES) {
        if (stage === 'journey' && !input.journey) continue;
        const out = removed.get(stage)!;
        stages.push({ stage, entered: inStage, removed: out });
        inStage -= out;
      }
      // Every day of the range, in the domain's zone, zero where nobody was reached.
      const days: string[] = [];
      const see = (at: number) => {
        const day = format.format(new Date(at));
        if (days[days.length - 1] !== day) days.push(day);
      };
      for (let at = input.from.getTime(); at < input.to.getTime(); at += 3_600_000) see(at);
      see(input.to.getTime() - 1);
      const by_day = days.map((date) => ({ date, persons: byDay.get(date) ?? 0 }));
      return {
        persons,
        messages,
        channel: input.channel,
        // The momentum's channel first (every message of a momentum without journey steps), then the steps' others.
        by_channel: input.channel
          ? [
              { channel: input.channel, messages: byChannel.get(input.channel) ?? 0 },
              ...[...byChannel]
                .filter(([channel]) => channel !== input.channel)
                .map(([channel, n]) => ({ channel, messages: n })),
            ]
          : [],
        by_day,
        stages,
        sample: [...sent.slice(0, Math.max(SAMPLE_SENT, SAMPLE_SIZE - stopped.length)), ...stopped].slice(
          0,
          SAMPLE_SIZE,
        ),
        from: input.from.toISOString(),
        to: input.to.toISOString(),
        took_ms: tookMs,
      };
    },
  };
}

export type Tally = ReturnType<typeof createTally>;
