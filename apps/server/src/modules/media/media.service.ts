import { randomUUID } from 'node:crypto';
import {
  MEDIA_MAX_BYTES,
  type MediaContentType,
  type MediaItem,
  msg,
  type UploadedMedia,
  type UploadMediaInput,
} from '@impeto/shared';
import { z } from 'zod';
import type { AppContext } from '../../lib/context.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { Storage } from '../../lib/storage.ts';
import { requireCompanyDomain } from '../../lib/tenancy.ts';
import { detectImageType, type ImageType } from './image-type.ts';
import * as q from './media.queries.ts';

const isUuid = (value: string) => z.uuid().safeParse(value).success;
const mediaNotFound = () => notFound(msg.media.notFound, 'MEDIA_NOT_FOUND');

const baseUrlOf = (ctx: AppContext, geroId: string) => `${ctx.config.publicUrl}/media/${encodeURIComponent(geroId)}/`;

const toMediaItem = (ctx: AppContext, geroId: string, row: q.MediaRow): MediaItem => {
  const baseUrl = baseUrlOf(ctx, geroId);
  return {
    id: row.id,
    image: `${baseUrl}${row.name}`,
    baseUrl,
    name: row.name,
    original_name: row.originalName,
    bytes: row.bytes,
    content_type: row.contentType as MediaContentType,
    created_at: row.createdAt.toISOString(),
  };
};

export async function listMedia(ctx: AppContext, companyUuid: string, domainUuid: string) {
  if (!isUuid(domainUuid)) throw notFound(msg.common.notFound, 'DOMAIN_NOT_FOUND');
  const domain = await requireCompanyDomain(ctx, companyUuid, domainUuid);
  return (await q.listDomainMedia(ctx.db, companyUuid, domain.uuid)).map((row) => toMediaItem(ctx, domain.geroId, row));
}

type Decoded = { ok: true; bytes: Buffer; type: ImageType } | { ok: false; reason: string };

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** A data URL or bare base64 into bytes whose magic numbers say PNG, JPEG, GIF or WEBP; the declared mime is ignored. */
function decodeImage(data: string, label: string): Decoded {
  let payload = data;
  let base64 = true;
  const dataUrl = /^data:([^,]*),/i.exec(data);
  if (dataUrl) {
    payload = data.slice(dataUrl[0].length);
    base64 = /;base64$/i.test(dataUrl[1] ?? '');
  }
  if (!base64) {
    // A text data URL (e.g. an inline SVG) is never one of the accepted image types.
    return { ok: false, reason: msg.media.notImage(label) };
  }
  payload = payload.replace(/\s+/g, '');
  if (!BASE64.test(payload) && !BASE64URL.test(payload)) return { ok: false, reason: msg.media.badEncoding(label) };
  if (Math.floor((payload.length * 3) / 4) - (payload.match(/=+$/)?.[0].length ?? 0) > MEDIA_MAX_BYTES) {
    return { ok: false, reason: msg.media.tooLarge(label) };
  }
  const bytes = Buffer.from(payload, BASE64.test(payload) ? 'base64' : 'base64url');
  if (bytes.length > MEDIA_MAX_BYTES) return { ok: false, reason: msg.media.tooLarge(label) };
  const type = detectImageType(bytes);
  if (!type) return { ok: false, reason: msg.media.notImage(label) };
  return { ok: true, bytes, type };
}

/**
 * All or nothing: every image is checked before any is stored, and a refused batch stores nothing.
 * Files are `<uuid>.<ext>` by the detected type under the domain's gero_id.
 */
export async function uploadMedia(
  ctx: AppContext,
  storage: Storage,
  companyUuid: string,
  domainUuid: string,
  images: UploadMediaInput['images'],
): Promise<UploadedMedia[]> {
  if (!isUuid(domainUuid)) throw notFound(msg.common.notFound, 'DOMAIN_NOT_FOUND');
  const domain = await requireCompanyDomain(ctx, companyUuid, domainUuid);

  const fields: Record<string, string> = {};
  const accepted = images.map((item, i) => {
    const originalName = typeof item === 'string' ? null : item.name || null;
    const decoded = decodeImage(typeof item === 'string' ? item : item.data, originalName ?? `imagem ${i + 1}`);
    if (!decoded.ok) fields[`images.${i}`] = decoded.reason;
    return { originalName, decoded };
  });
  if (Object.keys(fields).length > 0) {
    throw new AppError('MEDIA_REJECTED', 422, msg.media.uploadFailed, fields);
  }

  const rows = accepted.map(({ originalName, decoded }) => {
    if (!decoded.ok) throw new Error('unreachable');
    const id = randomUUID();
    const name = `${id}.${decoded.type.ext}`;
    return {
      bytes: decoded.bytes,
      row: {
        id,
        domainUuid: domain.uuid,
        name,
        originalName,
        contentType: decoded.type.contentType,
        bytes: decoded.bytes.length,
        storageKey: `${domain.geroId}/${name}`,
      },
    };
  });

  const stored: string[] = [];
  try {
    for (const { bytes, row } of rows) {
      await storage.put(row.storageKey, bytes, row.contentType);
      stored.push(row.storageKey);
    }
    const inserted = await q.insertMedia(
      ctx.db,
      rows.map((r) => r.row),
    );
    const byId = new Map(inserted.map((row) => [row.id, row]));
    return rows.map(({ row }) => {
      const { id, name, image, baseUrl, bytes, content_type, original_name } = toMediaItem(
        ctx,
        domain.geroId,
        byId.get(row.id)!,
      );
      return { id, name, original_name, image, baseUrl, bytes, content_type };
    });
  } catch (err) {
    await Promise.allSettled(stored.map((key) => storage.delete(key)));
    ctx.log.error({ err }, 'falha ao guardar mídia');
    throw new AppError('MEDIA_SAVE_FAILED', 500, msg.media.uploadFailed);
  }
}

/** Removes the row, then the file; another company's image is not found and nothing changes. */
export async function removeMedia(ctx: AppContext, storage: Storage, companyUuid: string, imageId: string) {
  if (!isUuid(imageId)) throw mediaNotFound();
  const row = await q.deleteMedia(ctx.db, companyUuid, imageId);
  if (!row) throw mediaNotFound();
  await storage.delete(row.storageKey).catch((err) => ctx.log.error({ err }, 'falha ao apagar arquivo de mídia'));
  return { id: row.id, name: row.name };
}

const GERO_ID = /^[A-Za-z0-9_-]{1,100}$/;
const FILE = /^[0-9a-f-]{36}\.(png|jpg|gif|webp)$/;

/** A stored file for the public route; anything that is not one of our names is simply not found. */
export async function readMediaFile(storage: Storage, geroId: string, file: string) {
  if (!GERO_ID.test(geroId) || !FILE.test(file)) throw mediaNotFound();
  const found = await storage.get(`${geroId}/${file}`);
  if (!found) throw mediaNotFound();
  return found;
}
