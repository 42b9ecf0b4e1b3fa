// The demo's MCP App: `show_revenue_dashboard` returns a quarter's monthly revenue, and its
// `ui://revenue-dashboard` resource is a self-contained page that draws it. The page speaks the
// App side of the protocol itself (initialize, tool input and result, size, teardown) in a few
// lines of inline script, so it needs no network and stays a few kilobytes in every transcript.

import {
  registerAppResource,
  registerAppTool,
  RESOURCE_MIME_TYPE,
} from '@modelcontextprotocol/ext-apps/server'
import type { McpServer } from '@modelcontextprotocol/server'
import { z } from 'zod'

export const DASHBOARD_URI = 'ui://revenue-dashboard'

const QUARTERS = ['Q1', 'Q2', 'Q3', 'Q4'] as const
const REGIONS = ['all', 'americas', 'emea', 'apac'] as const
const MONTHS: Record<(typeof QUARTERS)[number], string[]> = {
  Q1: ['January', 'February', 'March'],
  Q2: ['April', 'May', 'June'],
  Q3: ['July', 'August', 'September'],
  Q4: ['October', 'November', 'December'],
}
const REGION_SHARE: Record<(typeof REGIONS)[number], number> = {
  all: 1,
  americas: 0.46,
  emea: 0.33,
  apac: 0.21,
}
/** Monthly revenue of the whole company, in thousands of dollars. */
const BASE = [412, 398, 455, 470, 488, 503, 521, 497, 540, 566, 590, 642]

export interface RevenueReport {
  quarter: (typeof QUARTERS)[number]
  region: (typeof REGIONS)[number]
  currency: 'USD'
  months: { month: string; revenue: number }[]
  total: number
}

export function revenueReport(
  quarter: RevenueReport['quarter'],
  region: RevenueReport['region'],
): RevenueReport {
  const first = QUARTERS.indexOf(quarter) * 3
  const months = MONTHS[quarter].map((month, i) => ({
    month,
    revenue: Math.round((BASE[first + i] as number) * REGION_SHARE[region] * 1000),
  }))
  return {
    quarter,
    region,
    currency: 'USD',
    months,
    total: months.reduce((sum, entry) => sum + entry.revenue, 0),
  }
}

const dollars = (value: number) => `$${value.toLocaleString('en-US')}`

const DASHBOARD_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Revenue dashboard</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0; padding: 12px 16px; }
  body.dark { background: #0d1117; color: #e6edf3; }
  body.light { background: #ffffff; color: #1f2328; }
  h1 { font-size: 1.1rem; margin: 0 0 4px; }
  .total { font-size: 1.6rem; font-weight: 700; margin: 4px 0 12px; }
  .row { display: grid; grid-template-columns: 7rem 1fr 7rem; gap: 8px; align-items: center; margin: 4px 0; }
  .bar { height: 14px; border-radius: 3px; background: #2f81f7; }
  .value { text-align: right; font-variant-numeric: tabular-nums; }
  .muted { opacity: 0.7; font-size: 0.85rem; }
</style>
</head>
<body class="light">
<h1 id="title">Revenue</h1>
<div class="muted" id="status">Waiting for the tool result…</div>
<div class="total" data-testid="total" id="total"></div>
<div id="rows"></div>
<script>
(() => {
  let nextId = 1
  const pending = new Map()
  const post = (message) => window.parent.postMessage(message, '*')
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = nextId++
      pending.set(id, resolve)
      post({ jsonrpc: '2.0', id, method, params })
    })
  const notify = (method, params) => post({ jsonrpc: '2.0', method, params })
  const theme = (value) => { document.body.className = value === 'dark' ? 'dark' : 'light' }
  const money = (value) => '$' + Number(value).toLocaleString('en-US')
  const draw = (report) => {
    if (!report || !Array.isArray(report.months)) return
    document.getElementById('title').textContent =
      'Revenue ' + report.quarter + (report.region === 'all' ? '' : ' · ' + report.region)
    document.getElementById('status').textContent = report.currency + ', by month'
    document.getElementById('total').textContent = money(report.total)
    const top = Math.max(...report.months.map((m) => m.revenue), 1)
    const rows = document.getElementById('rows')
    rows.replaceChildren()
    for (const entry of report.months) {
      const row = document.createElement('div')
      row.className = 'row'
      const name = document.createElement('span')
      name.textContent = entry.month
      const bar = document.createElement('div')
      bar.className = 'bar'
      bar.style.width = Math.round((entry.revenue / top) * 100) + '%'
      const value = document.createElement('span')
      value.className = 'value'
      value.textContent = money(entry.revenue)
      row.append(name, bar, value)
      rows.append(row)
    }
  }
  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return
    const message = event.data
    if (!message || message.jsonrpc !== '2.0') return
    if (message.method === undefined && pending.has(message.id)) {
      pending.get(message.id)(message)
      pending.delete(message.id)
      return
    }
    switch (message.method) {
      case 'ui/notifications/tool-result':
        draw(message.params && message.params.structuredContent)
        return
      case 'ui/notifications/host-context-changed':
        if (message.params && message.params.theme) theme(message.params.theme)
        return
      case 'ui/resource-teardown':
        post({ jsonrpc: '2.0', id: message.id, result: {} })
        return
      default:
        if (message.id !== undefined && message.method !== undefined) {
          post({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } })
        }
    }
  })
  new ResizeObserver(() =>
    notify('ui/notifications/size-changed', { height: document.documentElement.scrollHeight }),
  ).observe(document.body)
  request('ui/initialize', {
    appInfo: { name: 'revenue-dashboard', version: '1.0.0' },
    appCapabilities: {},
    protocolVersion: '2026-01-26',
  }).then((answer) => {
    theme(answer.result && answer.result.hostContext && answer.result.hostContext.theme)
    notify('ui/notifications/initialized', {})
  })
})()
</script>
</body>
</html>
`

export function registerRevenueDashboard(server: McpServer): void {
  registerAppTool(
    server,
    'show_revenue_dashboard',
    {
      title: 'Revenue dashboard',
      description:
        'Shows a quarter’s monthly revenue, drawn by an interactive App when the host can.',
      inputSchema: z.object({
        quarter: z.enum(QUARTERS).default('Q3').describe('Quarter of 2026'),
        region: z.enum(REGIONS).default('all').describe('Sales region'),
      }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      _meta: { ui: { resourceUri: DASHBOARD_URI } },
    },
    async ({ quarter, region }) => {
      const report = revenueReport(quarter, region)
      const lines = report.months.map((m) => `${m.month}: ${dollars(m.revenue)}`)
      return {
        content: [
          {
            type: 'text',
            text: `Revenue ${quarter} 2026 (${region}): ${dollars(report.total)} in total. ${lines.join(', ')}.`,
          },
        ],
        structuredContent: { ...report },
      }
    },
  )
  registerAppResource(
    server,
    'Revenue dashboard',
    DASHBOARD_URI,
    { description: 'Monthly revenue as bars, with the quarter’s total.' },
    async () => ({
      contents: [{ uri: DASHBOARD_URI, mimeType: RESOURCE_MIME_TYPE, text: DASHBOARD_HTML }],
    }),
  )
}
