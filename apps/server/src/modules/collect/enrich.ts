import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../lib/context.ts';
import { type GeoInfo, geoFromHeaders, processGeo } from '../../lib/geo.ts';
import { type DeviceInfo, isBotAgent, parseUserAgent } from '../../lib/user-agent.ts';

export { processGeo };

/** What the collector tells the ingestor about a request's sender; the raw address never goes further. */
export interface Sender {
  device: DeviceInfo;
  geo: GeoInfo;
  language?: string;
}

const stripEmpty = <T extends object>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '')) as Partial<T>;

/**
 * The enrichment of a request on the collector's path: bot or not, device (user agent), place (the address's geo
 * database, overridden by the CDN headers the config trusts) and language (the tag's, else Accept-Language). Most
 * traffic comes from a few browser builds: each user agent is parsed and bot-checked once.
 */
export function createEnricher(ctx: AppContext) {
  const devices = new Map<string, DeviceInfo>();
  const bots = new Map<string, boolean>();
  const deviceOf = (ua: string) => {
    let device = devices.get(ua);
    if (!device) {
      device = parseUserAgent(ua);
      if (devices.size > 2000) devices.clear();
      devices.set(ua, device);
    }
    return device;
  };
  return {
    /** True for a bot's user agent, or none: its events are answered and dropped. */
    isBot(ua: string | undefined) {
      if (!ua) return true;
      let bot = bots.get(ua);
      if (bot === undefined) {
        bot = isBotAgent(ua);
        if (bots.size > 2000) bots.clear();
        bots.set(ua, bot);
      }
      return bot;
    },
    /** The sender of a request that is no bot (`isBot` said so), with the language the tag sent, if any. */
    senderOf(request: FastifyRequest, language: string | undefined): Sender {
      return {
        device: deviceOf(request.headers['user-agent']!),
        geo: {
          ...processGeo().lookup(request.ip),
          ...stripEmpty(geoFromHeaders(ctx.config.trustedGeoHeaders, request.headers)),
        },
        language: language ?? request.headers['accept-language']?.split(',')[0],
      };
    },
  };
}
