# The AI Agent checks of the e2e, sourced by leg.sh (kept apart from the other checks): n8n's own
# AI Agent (typeVersion 3.1 and 2.2) with n8n's OpenAI Chat Model, whose credential's Base URL
# points at a scripted OpenAI-compatible stand-in on loopback (agent/model-standin.mjs), and this
# package's Job Search tool against the reference server. Two conversations per agent: a search,
# Get Job on a row it returned, a final answer; and refused calls (a country name, then a minimum
# above the maximum) that the model corrects after reading each refusal. agent/check-agent.mjs
# prints the tool schemas and the tool answers the model got, with their sizes. The workflows and
# the credential are imported with the leg's own (no n8n command of their own); each agent runs
# with `n8n execute`, as the leg's first workflow does.

# The scripted model on a free port; sets standin_key (its API key) and standin_url (Base URL).
start_model_standin() {
	standin_key="sk-standin-$(node -e 'process.stdout.write(require("crypto").randomBytes(24).toString("base64url"))')"
	node "$e2e_dir/agent/model-standin.mjs" "$(free_port)" "$standin_key" "$work/model-requests.jsonl" >"$work/model-standin.log" 2>&1 &
	pids+=($!)
	for _ in $(seq 1 50); do grep -qs "^listening on" "$work/model-standin.log" && break; sleep 0.1; done
	grep -q '^listening on' "$work/model-standin.log" || die "the scripted model did not start: $(cat "$work/model-standin.log")"
	standin_url="$(sed -n 's/^listening on //p' "$work/model-standin.log")"
	log "scripted OpenAI-compatible model at $standin_url"
}

# Adds the stand-in's OpenAI credential (id modelStandIn) to a file for `n8n import:credentials`.
add_agent_credential() { # <credentials file>
	node -e '
const [file, apiKey, url] = process.argv.slice(1);
const credentials = JSON.parse(require("fs").readFileSync(file, "utf8"));
credentials.push({ id: "modelStandIn", name: "OpenAI stand-in (scripted, loopback)", type: "openAiApi", data: { apiKey, organizationId: "", url, header: false } });
require("fs").writeFileSync(file, JSON.stringify(credentials));' "$1" "$standin_key" "$standin_url"
}

# Writes the agent workflows into a folder for `n8n import:workflow --separate`; sets agent_workflows
# ("<id> <agent version>" lines).
write_agent_workflows() { # <folder>
	agent_workflows="$(node "$e2e_dir/agent/workflows.mjs" "$1" modelStandIn jobSearchLocal)" || die "writing the agent workflows failed"
}

# With no n8n running on the user folder: each agent workflow with `n8n execute`, then the checks,
# which also look for the given secrets in everything the model got.
check_agent() { # <secret>...
	local runs=() id version secrets
	while read -r id version; do
		N8N_LOG_FORMAT=json N8N_RUNNERS_BROKER_PORT="$(free_port)" n8n_cli execute --id="$id" --rawOutput >"$work/agent-$version.log" 2>&1 || true
		runs+=("$version=$work/agent-$version.log")
	done <<<"$agent_workflows"
	secrets="$(IFS=,; echo "$standin_key,$*")"
	SECRETS="$secrets" node "$e2e_dir/agent/check-agent.mjs" "$work/model-requests.jsonl" "${runs[@]}"
}
