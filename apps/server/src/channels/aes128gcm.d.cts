/** See aes128gcm.cjs. */
export function encrypt(
  p256dh: string,
  auth: string,
  plain: Uint8Array,
  fixed?: { salt: Buffer; privateKey: Buffer },
): Buffer;
