import '@mantine/dropzone/styles.css';
import { MEDIA_CONTENT_TYPES, MEDIA_MAX_BYTES, MEDIA_MAX_FILES, msg } from '@impeto/shared';
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Image,
  List,
  Modal,
  Paper,
  ScrollArea,
  Stack,
  Text,
  ThemeIcon,
} from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { IconAlertTriangle, IconPhoto, IconUpload, IconX } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { isApiError } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { type UploadImage, useUploadMedia } from '../api/upload-media.ts';
import { formatFileSize } from './format-size.ts';

interface PickedFile {
  key: string;
  file: File;
  preview: string | null;
  error?: string;
}

const readAsDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });

const previewOf = (file: File) => (typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null);
const revoke = (picked: PickedFile) => {
  if (picked.preview) URL.revokeObjectURL(picked.preview);
};

function rejectionMessage({ file, errors }: FileRejection) {
  const code = errors[0]?.code;
  if (code === 'file-too-large') return msg.media.tooLarge(file.name);
  if (code === 'too-many-files') return msg.media.tooMany;
  return msg.media.notImage(file.name);
}

/** Several images at a time, checked here for type, 5 MB and 10 files before they are read as data URLs. */
export function UploadMediaModal({
  opened,
  onClose,
  domainUuid,
}: {
  opened: boolean;
  onClose: () => void;
  domainUuid: string;
}) {
  const upload = useUploadMedia(domainUuid);
  const [files, setFiles] = useState<PickedFile[]>([]);
  const [problems, setProblems] = useState<string[]>([]);
  const [reading, setReading] = useState(false);
  const filesRef = useRef(files);
  filesRef.current = files;
  const busy = reading || upload.isPending;

  useEffect(() => () => filesRef.current.forEach(revoke), []);

  const reset = () => {
    files.forEach(revoke);
    setFiles([]);
    setProblems([]);
  };

  const close = () => {
    if (busy) return;
    reset();
    onClose();
  };

  const add = (accepted: File[], rejected: FileRejection[] = []) => {
    const messages = rejected.map(rejectionMessage);
    const room = MEDIA_MAX_FILES - files.length;
    if (accepted.length > room) messages.push(msg.media.tooMany);
    const next = accepted.slice(0, Math.max(0, room)).map((file, i) => ({
      key: `${Date.now()}-${i}-${file.name}`,
      file,
      preview: previewOf(file),
    }));
    setFiles((current) => [...current, ...next]);
    setProblems([...new Set(messages)]);
  };

  const removeFile = (key: string) =>
    setFiles((current) => {
      const gone = current.find((f) => f.key === key);
      if (gone) revoke(gone);
      return current.filter((f) => f.key !== key);
    });

  const send = async () => {
    if (files.length === 0) {
      setProblems([msg.media.noImages]);
      return;
    }
    setReading(true);
    let images: UploadImage[];
    try {
      images = await Promise.all(files.map(async ({ file }) => ({ name: file.name, data: await readAsDataUrl(file) })));
    } catch {
      notifyError(msg.media.uploadFailed);
      return;
    } finally {
      setReading(false);
    }
    upload.mutate(images, {
      onSuccess: (answer) => {
        notifySuccess(answer.message || msg.media.uploaded);
        reset();
        onClose();
      },
      onError: (error) => {
        const fields = isApiError(error) ? (error.fields ?? {}) : {};
        setFiles((current) => current.map((f, i) => ({ ...f, error: fields[`images.${i}`] })));
        notifyError(error);
      },
    });
  };

  return (
    <Modal opened={opened} onClose={close} title="Adicionar mídia" size={630}>
      <Stack gap="md">
        <Dropzone
          // One callback with both lists: separate onDrop/onReject calls would overwrite each other's messages.
          onDrop={() => {}}
          onDropAny={(accepted, rejected) => add(accepted, rejected)}
          accept={[...MEDIA_CONTENT_TYPES]}
          maxSize={MEDIA_MAX_BYTES}
          multiple
          disabled={busy || files.length >= MEDIA_MAX_FILES}
          radius="md"
          inputProps={{ 'aria-label': 'Selecionar imagens' }}
        >
          <Group justify="center" gap="lg" mih={140} style={{ pointerEvents: 'none' }} wrap="nowrap">
            <Dropzone.Accept>
              <ThemeIcon size={52} radius="xl" variant="light">
                <IconUpload size={28} />
              </ThemeIcon>
            </Dropzone.Accept>
            <Dropzone.Reject>
              <ThemeIcon size={52} radius="xl" variant="light" color="red">
                <IconX size={28} />
              </ThemeIcon>
            </Dropzone.Reject>
            <Dropzone.Idle>
              <ThemeIcon size={52} radius="xl" variant="light" color="gray">
                <IconPhoto size={28} />
              </ThemeIcon>
            </Dropzone.Idle>
            <div>
              <Text fw={600}>Arraste imagens aqui ou clique para escolher</Text>
              <Text size="sm" c="dimmed" mt={4}>
                PNG, JPEG, GIF ou WEBP · até 5 MB cada · no máximo {MEDIA_MAX_FILES} por envio
              </Text>
              <Text size="xs" c="dimmed" mt={4}>
                Recomendado: ícones 100×100 px, imagens 1000×500 px.
              </Text>
            </div>
          </Group>
        </Dropzone>

        {problems.length > 0 ? (
          <Alert color="red" variant="light" icon={<IconAlertTriangle />} radius="md" p="sm">
            <List size="sm" spacing={2}>
              {problems.map((problem) => (
                <List.Item key={problem}>{problem}</List.Item>
              ))}
            </List>
          </Alert>
        ) : null}

        {files.length > 0 ? (
          <Stack gap={6}>
            <Text size="sm" fw={600}>
              {files.length} {files.length === 1 ? 'imagem selecionada' : 'imagens selecionadas'}
            </Text>
            <ScrollArea.Autosize mah={280} type="auto" offsetScrollbars>
              <Stack gap={6}>
                {files.map((picked) => (
                  <Paper
                    key={picked.key}
                    withBorder
                    radius="md"
                    p={6}
                    style={picked.error ? { borderColor: 'var(--mantine-color-red-5)' } : undefined}
                  >
                    <Group wrap="nowrap" gap="sm">
                      {picked.preview ? (
                        <Image src={picked.preview} alt="" w={48} h={48} radius="sm" fit="cover" />
                      ) : (
                        <ThemeIcon size={48} variant="light" color="gray">
                          <IconPhoto size={20} />
                        </ThemeIcon>
                      )}
                      <Stack gap={0} miw={0} style={{ flex: 1 }}>
                        <Text size="sm" truncate title={picked.file.name}>
                          {picked.file.name}
                        </Text>
                        <Text size="xs" c={picked.error ? 'red' : 'dimmed'}>
                          {picked.error ?? formatFileSize(picked.file.size)}
                        </Text>
                      </Stack>
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        aria-label={`Retirar ${picked.file.name}`}
                        onClick={() => removeFile(picked.key)}
                        disabled={busy}
                      >
                        <IconX size={16} />
                      </ActionIcon>
                    </Group>
                  </Paper>
                ))}
              </Stack>
            </ScrollArea.Autosize>
          </Stack>
        ) : null}

        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={busy}>
            Cancelar
          </Button>
          <Button leftSection={<IconUpload size={16} />} onClick={send} loading={busy} disabled={files.length === 0}>
            Enviar {files.length > 0 ? `(${files.length})` : ''}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
