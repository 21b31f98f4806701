'use strict';
/*
 * aes128gcm for Web Push (RFC 8291 over RFC 8188), one record, in plain JavaScript so the same file runs on the
 * event loop and in the encryption threads (encrypt-pool.ts loads it by path; no TypeScript loader there).
 * One P-256 ECDH with a fresh key pair per message (unavoidable: every subscription has its own key), then five
 * HMAC-SHA-256 (the HKDF steps of RFC 8291 §3.4 and RFC 8188 §2.2, each with one block of output) and AES-128-GCM.
 * web-push's encrypt did the same through http_ece with more allocations and key conversions: about 20% more CPU.
 */
const crypto = require('node:crypto');

const KEY_INFO = Buffer.from('WebPush: info\0', 'latin1');
const CEK_INFO = Buffer.from('Content-Encoding: aes128gcm\0\x01', 'latin1');
const NONCE_INFO = Buffer.from('Content-Encoding: nonce\0\x01', 'latin1');
const ONE = Buffer.from([1]);
/** The last (and only) record's padding delimiter (RFC 8188 §2). */
const LAST_RECORD = Buffer.from([2]);
/** Record size 4096 and the key id length (a 65-byte uncompressed P-256 point), after the 16-byte salt. */
const RS_AND_IDLEN = Buffer.from([0, 0, 16, 0, 65]);

/** This thread's ECDH object (see encrypt). */
let sender;

function hmac(key, ...parts) {
  const h = crypto.createHmac('sha256', key);
  for (const p of parts) h.update(p);
  return h.digest();
}

/**
 * Encrypts `plain` for the subscription keys `p256dh` (the browser's P-256 public key) and `auth` (its 16-byte
 * secret), both base64url. Throws on keys that are not what a browser gives. `fixed` (salt, sender private key)
 * exists for the RFC's test vector only.
 */
function encrypt(p256dh, auth, plain, fixed) {
  const uaPublic = Buffer.from(p256dh, 'base64url');
  const authSecret = Buffer.from(auth, 'base64url');
  if (uaPublic.length !== 65 || uaPublic[0] !== 4) throw new Error('p256dh is not an uncompressed P-256 point');
  if (authSecret.length < 16) throw new Error('auth is shorter than 16 bytes');
  let ecdh;
  let asPublic;
  if (fixed?.privateKey) {
    ecdh = crypto.createECDH('prime256v1');
    ecdh.setPrivateKey(fixed.privateKey);
    asPublic = ecdh.getPublicKey();
  } else {
    // A fresh key pair for every message, in one ECDH object per thread (creating the object each time was
    // about a tenth of the encryption's CPU); encrypt is synchronous, so no message sees another's key.
    ecdh = sender ??= crypto.createECDH('prime256v1');
    asPublic = ecdh.generateKeys();
  }
  const ikm = hmac(hmac(authSecret, ecdh.computeSecret(uaPublic)), KEY_INFO, uaPublic, asPublic, ONE);
  const salt = fixed?.salt ?? crypto.randomBytes(16);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, CEK_INFO).subarray(0, 16);
  const nonce = hmac(prk, NONCE_INFO).subarray(0, 12);
  const cipher = crypto.createCipheriv('aes-128-gcm', cek, nonce);
  return Buffer.concat([
    salt,
    RS_AND_IDLEN,
    asPublic,
    cipher.update(plain),
    cipher.update(LAST_RECORD),
    cipher.final(),
    cipher.getAuthTag(),
  ]);
}

module.exports = { encrypt };
