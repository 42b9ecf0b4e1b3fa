// A prompt's result as the server gave it: its description and each message with its role, the
// content shown the way tool results are (checked first; Markdown, images, resources).

import type { JSX } from 'preact'
import { useMemo } from 'preact/hooks'
import { toJson } from '../result/content.js'
import { clip } from '../result/media.js'
import { PlainText } from '../result/PlainText.js'
import { ResultView } from '../result/ResultView.js'

interface Message {
  role: string
  content: unknown
}

type Read =
  | { ok: true; description: string | null; messages: Message[] }
  | { ok: false; json: string }

function readPrompt(result: unknown): Read {
  if (
    typeof result !== 'object' ||
    result === null ||
    !Array.isArray((result as { messages?: unknown }).messages)
  ) {
    return { ok: false, json: toJson(result) }
  }
  const record = result as { description?: unknown; messages: unknown[] }
  return {
    ok: true,
    description: typeof record.description === 'string' ? record.description : null,
    messages: record.messages.map((message) => {
      const item =
        typeof message === 'object' && message !== null ? (message as Record<string, unknown>) : {}
      return {
        role: typeof item.role === 'string' ? clip(item.role, 20) : '(no role)',
        content: item.content,
      }
    }),
  }
}

export function PromptMessages({ result }: { result: unknown }): JSX.Element {
  const read = useMemo(() => readPrompt(result), [result])
  if (!read.ok) {
    return (
      <div class="result-note" role="alert">
        <p>The server’s answer has no list of messages.</p>
        <PlainText text={read.json} />
      </div>
    )
  }
  return (
    <div class="prompt-result" data-testid="prompt-result">
      {read.description !== null && <p class="field-description">{read.description}</p>}
      {read.messages.length === 0 && <p class="pane-empty">The prompt has no messages.</p>}
      <ol class="prompt-messages">
        {read.messages.map((message, index) => (
          <li
            key={index}
            class="prompt-message"
            data-testid="prompt-message"
            data-role={message.role}
          >
            <span class="prompt-role">{message.role}</span>
            {/* A message holds one content block (or, leniently, a list of them). */}
            <ResultView
              result={{
                content: Array.isArray(message.content) ? message.content : [message.content],
              }}
            />
          </li>
        ))}
      </ol>
    </div>
  )
}
