// k8s_validate.js FILE.yaml... - validates each Kubernetes object against the
// Kubernetes OpenAPI schemas as precompiled by the npm package kubernetes-models
// (4.5.1, @kubernetes-models/validate, ajv); offline. Exit 1 when one is invalid.
// kubernetes-models accepts unknown fields, so the top-level fields are also
// checked against the ConfigMap's own (io.k8s.api.core.v1.ConfigMap).
'use strict';
const fs = require('fs');
const YAML = require('yaml');
const { ConfigMap } = require('kubernetes-models/v1/ConfigMap');
const known = { ConfigMap: ['apiVersion', 'kind', 'metadata', 'data', 'binaryData', 'immutable'] };
let bad = 0;
for (const f of process.argv.slice(2)) {
  for (const doc of YAML.parseAllDocuments(fs.readFileSync(f, 'utf8'))) {
    if (doc.errors.length) { console.log(`${f}: YAML error ${doc.errors[0].message}`); bad++; continue; }
    const o = doc.toJS();
    if (!o) continue;
    if (`${o.apiVersion}/${o.kind}` !== 'v1/ConfigMap') { console.log(`${f}: no model for ${o.apiVersion}/${o.kind}`); bad++; continue; }
    const extra = Object.keys(o).filter((k) => !known[o.kind].includes(k));
    try {
      new ConfigMap(o).validate();
      if (extra.length) throw new Error(`unknown fields ${extra.join(', ')}`);
      for (const [k, v] of Object.entries(o.data || {}))
        if (!/^[-._a-zA-Z0-9]+$/.test(k) || typeof v !== 'string') throw new Error(`data key ${k}`);
      console.log(`${f}: ${o.kind}/${o.metadata.name} OK`);
    } catch (e) { bad++; console.log(`${f}: ${o.kind} INVALID: ${e.message}`); }
  }
}
process.exit(bad ? 1 : 0);
