// Vue's full build (runtime + template compiler) has the same API as 'vue'; this page uses it so
// its template can be a string, and so `app.config.compilerOptions.isCustomElement` applies.
declare module 'vue/dist/vue.esm-bundler.js' {
  export * from 'vue';
}
