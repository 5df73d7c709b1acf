# The examples' end-to-end checks, sourced by leg.sh (kept apart from the other checks): the
# examples/ workflows import into the real n8n with every node known, n8n serves the package's
# output schemas, and the editor shows them and runs the digest example's trigger.

examples_manifest() { echo "$work/examples-manifest.json"; }

# Before n8n starts: the examples (with ids and the reference server's credential) and the
# schema-preview workflow, imported like the other e2e workflows.
import_examples() {
	node "$e2e_dir/examples/prepare.mjs" "$repo" "$work/examples" "$(examples_manifest)" || die "preparing the examples failed"
	n8n_cli import:workflow --separate --input="$work/examples" >>"$work/import.log" 2>&1 || die "import:workflow of examples/ failed (log: $work/import.log)"
	log "  imported every example of examples/"
}

# After `n8n export:nodes`: every node of every example is a type and version n8n knows.
check_example_nodes() { # <export:nodes json>
	node "$e2e_dir/examples/check-nodes.mjs" "$1" "$(examples_manifest)" || die "an example uses a node this n8n does not know"
}

# With n8n main up: the schema route answers for each operation, then the editor checks.
check_examples_in_editor() { # <n8n url>
	node "$e2e_dir/examples/check-schemas.mjs" "$1" || return 1
	N8N_URL="$1" OWNER_EMAIL="$owner_email" OWNER_PASSWORD="$owner_password" SHOTS="$shots" \
		EXAMPLES_MANIFEST="$(examples_manifest)" node "$e2e_dir/examples/editor.mjs"
}
