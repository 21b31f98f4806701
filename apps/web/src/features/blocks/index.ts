export { AUDIENCE_DEBOUNCE_MS, AudienceEstimate, formatAudience } from './audience-estimate.tsx';
export * from './block-state.ts';
export * from './block-summary.ts';
export { ButtonsEditor, ChannelEditor, MESSAGE_MAX, NO_CHANNELS, TITLE_MAX } from './channel-editor.tsx';
export {
  checkExperiment,
  ExperimentEditor,
  type ExperimentState,
  emptyExperiment,
  experimentBody,
  experimentFromItem,
  experimentUsed,
  VariantTabs,
} from './experiment-editor.tsx';
export { METRIC_LABELS, winnerPlanLine, winnerStatusLine } from './experiment-winner.ts';
export { FILTERS_FAILED, FilterEditor } from './filter-editor.tsx';
export { FinishEditor } from './finish-editor.tsx';
export { ImagePickerModal } from './image-picker-modal.tsx';
export { IntervalInput } from './interval-input.tsx';
export { ConditionEditor, ExitEditor, WaitEditor } from './journey-editor.tsx';
export * from './journey-state.ts';
export { cutMessage, NO_MESSAGE, NotificationPreview, PREVIEW_CUT, TITLE_PROMPT } from './notification-preview.tsx';
export * from './save-rules.ts';
export { ScheduleModal, type ScheduleModalProps } from './schedule-modal.tsx';
export { NO_DESKTOP_NOTIFICATIONS, showTestNotification, TEST_TITLE_REQUIRED } from './test-notification.ts';
export { TRIGGER_LABELS, TriggerEditor, urlHint } from './trigger-editor.tsx';
export { WebviewPreview, type WebviewPreviewProps, type WebviewPreviewType } from './webview-preview.tsx';
export { WorktimeEditor } from './worktime-editor.tsx';
export * from './zoned-time.ts';
