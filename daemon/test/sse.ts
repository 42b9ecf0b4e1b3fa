// The JSON-RPC messages of an MCP HTTP answer: a JSON body, or the `data:` of each event of an
// event stream. A stream's priming event (an id with empty data, sent where the server can resume
// the stream) carries no message.

export function sseMessages(text: string): Array<Record<string, unknown>> {
  if (text.trimStart().startsWith('{')) return [JSON.parse(text) as Record<string, unknown>]
  return text
    .split('\n')
    .filter((line) => line.startsWith('data:') && line.slice(5).trim() !== '')
    .map((line) => JSON.parse(line.slice(5).trim()) as Record<string, unknown>)
}
