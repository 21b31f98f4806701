import { describe, expect, it } from 'vitest';
import { isPrivateAddress } from './safe-agent.ts';

/** IPv4 addresses that are not public, and the IPv6 forms that carry each of them. */
const PRIVATE_V4 = ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0'];
const hex = (v4: string) => {
  const [a = 0, b = 0, c = 0, d = 0] = v4.split('.').map(Number);
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
};
const twins = (v4: string) => [
  `::${v4}`, // IPv4-compatible (deprecated)
  `::${hex(v4)}`,
  `::ffff:${v4}`, // IPv4-mapped
  `::ffff:${hex(v4)}`,
  `0:0:0:0:0:ffff:${hex(v4)}`,
  `::ffff:0:${v4}`, // IPv4-translated (RFC 6145)
  `64:ff9b::${v4}`, // NAT64 (RFC 6052)
  `64:ff9b::${hex(v4)}`,
  `64:ff9b:1::${hex(v4)}`, // local-use NAT64 (RFC 8215)
  `2002:${hex(v4)}::1`, // 6to4
];

describe('isPrivateAddress', () => {
  it('refuses every IPv6 form of a private IPv4 address, like the address itself', () => {
    const missed = PRIVATE_V4.flatMap((v4) => [v4, ...twins(v4)]).filter((a) => !isPrivateAddress(a));
    expect(missed).toEqual([]);
  });

  it('refuses the IPv6 ranges that are not public', () => {
    const ranges = [
      '::',
      '::1',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'fe80::1%eth0',
      'febf::1',
      'fec0::1', // site-local (deprecated)
      'ff02::1',
      'ff0e::1',
      '2001::1', // Teredo
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '2001:db8::1', // documentation
      '2002:808:808::1', // 6to4, refused whole (deprecated, RFC 7526)
      '100::1', // discard-only
      '64:ff9b:1::808:808', // local-use NAT64: never global
      '::ffff:0:0',
      'not an address',
      '',
    ];
    expect(ranges.filter((a) => !isPrivateAddress(a))).toEqual([]);
  });

  it('lets public addresses through, NAT64 and IPv4-mapped forms of a public IPv4 included', () => {
    const allowed = [
      '8.8.8.8',
      '200.160.2.3',
      '2001:4860:4860::8888',
      '2606:4700::6810:84e5',
      '2a00:1450:4001:82b::200a',
      '64:ff9b::8.8.8.8', // DNS64 on an IPv6-only network answers public IPv4 hosts this way
      '64:ff9b::808:808',
      '::ffff:8.8.8.8',
    ];
    expect(allowed.filter((a) => isPrivateAddress(a))).toEqual([]);
  });
});
