package dev.finch.host.words;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.finch.capabilities.CapabilitySpec;
import dev.finch.capabilities.Grant;
import dev.finch.capabilities.Scope;
import dev.finch.host.ToolCapability;
import dev.finch.vm.persist.ValueCodec;
import dev.finch.vm.persist.ValueForms;

/**
 * The saved forms of the host families' plain-data values: µNorman's tool and model capabilities and the grants
 * {@code capability-list} lists. Each confers nothing by itself — every call is checked at the host boundary, and a
 * listed grant is revalidated against the run's grants where it is delegated — so it is saved as what it names.
 */
enum HostForms implements ValueForms {
    /** {@code {"tool":grant,"instance":n,"stateful":b}}. */
    TOOL_CAPABILITY {
        @Override public boolean saves(Object v) { return v instanceof ToolCapability; }

        @Override public JsonNode encode(Object v) {
            ToolCapability c = (ToolCapability) v;
            return JsonNodeFactory.instance.objectNode().put("tool", c.grant()).put("instance", c.instance()).put("stateful", c.stateful());
        }

        @Override public Object decode(JsonNode n) {
            if (!n.isObject() || !n.has("tool")) return null;
            return new ToolCapability(n.get("tool").asText(), n.path("instance").asLong(), n.path("stateful").asBoolean());
        }
    },
    /** {@code {"model":grant}}. */
    MODEL_CAPABILITY {
        @Override public boolean saves(Object v) { return v instanceof ModelCapability; }

        @Override public JsonNode encode(Object v) { return JsonNodeFactory.instance.objectNode().put("model", ((ModelCapability) v).grant()); }

        @Override public Object decode(JsonNode n) {
            return n.isObject() && n.has("model") && n.get("model").isTextual() ? new ModelCapability(n.get("model").asText()) : null;
        }
    },
    /** {@code {"grant":id,"capability":spec,"scope":scope,"issuer":node}}. */
    GRANT_RESOURCE {
        @Override public boolean saves(Object v) { return v instanceof GrantResource; }

        @Override public JsonNode encode(Object v) {
            GrantResource g = (GrantResource) v;
            return JsonNodeFactory.instance.objectNode().put("grant", g.grant().id()).put("capability", g.grant().spec().toString())
                    .put("scope", g.grant().scope().name()).put("issuer", g.issuer());
        }

        @Override public Object decode(JsonNode n) {
            if (!n.isObject() || !n.has("grant")) return null;
            var spec = CapabilitySpec.parse(n.path("capability").asText());
            Scope scope;
            try {
                scope = Scope.valueOf(n.path("scope").asText());
            } catch (IllegalArgumentException e) {
                throw new ValueCodec.Malformed("a saved grant has no known scope");
            }
            var grant = spec.isOk() ? Grant.of(n.get("grant").asText(), spec.value(), scope) : null;
            if (grant == null || !grant.isOk()) throw new ValueCodec.Malformed("a saved grant does not parse");
            return GrantResource.restored(grant.value(), n.path("issuer").asText());
        }
    }
}
