import { describe, expect, it } from 'vitest'
import { completeInput } from './complete-input.js'

const tools = ['mcp_fx_slow', 'mcp_fx_echo', 'mcp_fx_env', 'mcp_demo_echo']

describe('completeInput', () => {
  it('completes a unique tool name after /call and adds a space', () => {
    expect(completeInput('/call mcp_fx_sl', tools)).toEqual({
      input: '/call mcp_fx_slow ',
      candidates: [],
    })
  })

  it('extends an ambiguous tool name to the common prefix and lists the candidates', () => {
    expect(completeInput('/call mcp_fx_e', tools)).toEqual({
      input: '/call mcp_fx_e',
      candidates: ['mcp_fx_echo', 'mcp_fx_env'],
    })
    expect(completeInput('/call mcp_f', tools)).toEqual({
      input: '/call mcp_fx_',
      candidates: ['mcp_fx_echo', 'mcp_fx_env', 'mcp_fx_slow'],
    })
  })

  it('completes command names', () => {
    expect(completeInput('/se', tools)).toEqual({
      input: '/se',
      candidates: ['/servers', '/sessions'],
    })
    expect(completeInput('/q', tools)).toEqual({ input: '/quit ', candidates: [] })
  })

  it('leaves input alone when nothing matches or once arguments have begun', () => {
    expect(completeInput('/call zzz', tools)).toEqual({ input: '/call zzz', candidates: [] })
    expect(completeInput('/call mcp_fx_slow {"st', tools)).toEqual({
      input: '/call mcp_fx_slow {"st',
      candidates: [],
    })
    expect(completeInput('hello', tools)).toEqual({ input: 'hello', candidates: [] })
  })
})
