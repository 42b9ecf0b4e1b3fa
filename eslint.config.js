import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    // Text on the attach screen goes through its own Text, which shows control characters visibly.
    files: ['daemon/src/cli/tui/**/*.{ts,tsx}'],
    ignores: ['daemon/src/cli/tui/Text.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'ink',
              importNames: ['Text', 'Static', 'Transform'],
              message: "Use ./Text.js: it keeps a server's control characters off the terminal.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['webshell/**/*.{js,ts,tsx}', 'sandbox-proxy/**/*.{js,ts}'],
    languageOptions: { globals: { ...globals.browser } },
  },
)
