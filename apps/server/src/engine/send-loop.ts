import type { AppContext } from '../lib/context.ts';
import { SEND_PASSES } from './defaults.ts';

/**
 * The send loop (worker role): SEND_PASSES passes run side by side, each starting the next as soon as it handled
 * something, else sleeping until woken (deliveries queued, due now) or for half a second. Two passes overlap (SKIP
 * LOCKED keeps them apart): one sends while the other waits on its slowest pushes or records, so a claimed batch's
 * tail never idles the sockets.
 */
export function createSendLoop(ctx: Pick<AppContext, 'log'>, sendPass: () => Promise<number>) {
  const wakers = new Set<() => void>();
  let wakeRequested = false;
  let running = false;
  let loop: Promise<void> | undefined;
  /** Send passes under way (the loop's and anyone's): `drain` waits for them. */
  const passes = new Set<Promise<number>>();

  const wake = () => {
    wakeRequested = true;
    for (const w of wakers) w();
  };

  function dispatchDue() {
    const pass = sendPass();
    passes.add(pass);
    void pass.then(
      () => passes.delete(pass),
      () => passes.delete(pass),
    );
    return pass;
  }

  const runLoop = async () => {
    while (running) {
      let handled = 0;
      try {
        handled = await dispatchDue();
      } catch (err) {
        ctx.log.error({ err }, 'falha no envio de entregas');
      }
      if (handled > 0 || !running) continue;
      if (wakeRequested) {
        wakeRequested = false;
        continue;
      }
      await new Promise<void>((resolve) => {
        const waker = () => {
          clearTimeout(timer);
          wakers.delete(waker);
          resolve();
        };
        const timer = setTimeout(waker, 500);
        wakers.add(waker);
      });
      wakeRequested = false;
    }
  };

  return {
    /** Deliveries may be due now: a sleeping pass starts at once. */
    wake,
    /** One send pass now. */
    dispatchDue,
    /** Waits for the passes under way (one may hold a claimed batch), then sends until nothing due is left. */
    async drain() {
      for (;;) {
        await Promise.allSettled([...passes]);
        if ((await dispatchDue()) === 0 && passes.size === 0) return;
      }
    },
    start() {
      running = true;
      loop = Promise.all(Array.from({ length: SEND_PASSES }, () => runLoop())).then(() => {});
    },
    /** Lets the passes finish what they claimed. */
    async stop() {
      running = false;
      for (const w of wakers) w();
      await loop;
    },
  };
}
