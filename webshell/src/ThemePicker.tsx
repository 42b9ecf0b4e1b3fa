// The palette picker in the top bar: the system's (the default), light or dark.

import { useShell } from './store/shell-context.js'
import type { ThemeChoice } from './theme-choice.js'

const CHOICES: readonly [ThemeChoice, string][] = [
  ['system', 'System'],
  ['light', 'Light'],
  ['dark', 'Dark'],
]

export function ThemePicker() {
  const { store, controller } = useShell()
  return (
    <label class="theme-picker">
      Theme{' '}
      <select
        data-testid="theme"
        value={store.theme.value}
        onChange={(event) => controller.setTheme(event.currentTarget.value as ThemeChoice)}
      >
        {CHOICES.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </label>
  )
}
