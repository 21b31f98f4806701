import { css } from '@codemirror/lang-css';
import { html } from '@codemirror/lang-html';
import { javascript } from '@codemirror/lang-javascript';
import { EditorView } from '@codemirror/view';
import CodeMirror from '@uiw/react-codemirror';
import { useMemo } from 'react';
import type { CodeLanguage } from './code-editor.tsx';

const LANGUAGES = { html: () => html(), css: () => css(), javascript: () => javascript() };

/** CodeMirror 6 through @uiw/react-codemirror; loaded on demand by CodeEditor so other pages never carry it. */
export default function CodeMirrorField({
  language,
  value,
  onChange,
  label,
  readOnly,
  height,
}: {
  language: CodeLanguage;
  value: string;
  onChange: (value: string) => void;
  label: string;
  readOnly?: boolean;
  height: number;
}) {
  const extensions = useMemo(
    () => [
      LANGUAGES[language](),
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ 'aria-label': `Código ${label}` }),
    ],
    [language, label],
  );
  return (
    <CodeMirror
      value={value}
      onChange={onChange}
      extensions={extensions}
      readOnly={readOnly}
      editable={!readOnly}
      height={`${height}px`}
      basicSetup={{ foldGutter: false, highlightActiveLine: !readOnly, autocompletion: true }}
      style={{ fontSize: 13 }}
    />
  );
}
