// ESLint: the JavaScript and typescript-eslint recommendations everywhere, Lit's and the
// web-component rules on the element. A `!` is a check not yet written, so it is an error.
import js from '@eslint/js';
import lit from 'eslint-plugin-lit';
import wc from 'eslint-plugin-wc';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'bench/results/', '.cache/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/element/**/*.ts', 'src/features/**/*.ts', 'src/define.ts', 'src/react.ts', 'src/vue.ts'],
    ...lit.configs['flat/recommended'],
  },
  {
    files: ['src/element/**/*.ts', 'src/features/**/*.ts', 'src/define.ts', 'src/react.ts', 'src/vue.ts'],
    ...wc.configs['flat/recommended'],
  },
);
