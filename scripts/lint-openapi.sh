#!/usr/bin/env bash
# Validates server/src/main/resources/openapi.yaml with Redocly's OpenAPI linter (structure, refs,
# path parameters); CI runs it. Needs Node and npm (npx fetches the pinned CLI once). Which routes
# the document must list is checked against the code by OpenApiDocumentTest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# operationId is optional in OpenAPI 3.0 and Cairn's operations are named by method and path
exec npx --yes @redocly/cli@2.77.0 lint --extends=minimal --skip-rule=operation-operationId \
    --format=summary "$root/server/src/main/resources/openapi.yaml"
