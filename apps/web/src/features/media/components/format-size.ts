const oneDecimal = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** Sizes in KB, or in MB from 1000 KB up; 1 KB = 1024 bytes, one decimal place (READINGS A-22). */
export function formatFileSize(bytes: number): string {
  const kb = Math.max(0, bytes) / 1024;
  if (Number(kb.toFixed(1)) >= 1000) return `${oneDecimal.format(kb / 1024)} MB`;
  return `${oneDecimal.format(kb)} KB`;
}
