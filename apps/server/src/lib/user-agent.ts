import Bowser from 'bowser';
import { isbot } from 'isbot';

export interface DeviceInfo {
  browser?: string;
  version?: string;
  os?: string;
  /** desktop, mobile, tablet or tv (bowser's platform type). */
  device: string;
  mobile: boolean;
}

export const isBotAgent = (ua: string | undefined) => !ua || isbot(ua);

export function parseUserAgent(ua: string): DeviceInfo {
  const parsed = Bowser.parse(ua);
  const device = parsed.platform.type ?? 'desktop';
  return {
    browser: parsed.browser.name || undefined,
    version: parsed.browser.version || undefined,
    os: parsed.os.name || undefined,
    device,
    mobile: device === 'mobile' || device === 'tablet',
  };
}
