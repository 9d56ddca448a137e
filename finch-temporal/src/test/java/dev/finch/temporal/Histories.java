package dev.finch.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.temporal.api.common.v1.Payloads;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.common.WorkflowExecutionHistory;
import java.util.HashMap;
import java.util.Map;

/** Reading a session workflow's history: the images it passed from step to step. */
final class Histories {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Histories() { }

    static JsonNode payload(Payloads payloads, int index) {
        try {
            return JSON.readTree(payloads.getPayloads(index).getData().toStringUtf8());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Every activity the workflow scheduled was given the image the last completed step produced (the first none): the
     * continuation travels only through recorded activity results, never made or changed by the workflow code.
     */
    static int assertImagesChain(WorkflowExecutionHistory history) {
        Map<Long, String> typeOf = new HashMap<>();
        String image = null;
        int checked = 0;
        for (HistoryEvent e : history.getEvents()) {
            if (e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) {
                var a = e.getActivityTaskScheduledEventAttributes();
                typeOf.put(e.getEventId(), a.getActivityType().getName());
                JsonNode given = payload(a.getInput(), 0);
                assertThat(given.isNull() || given.isMissingNode() ? null : given.asText()).as("the image given to %s (event %d)", a.getActivityType().getName(), e.getEventId())
                        .isEqualTo(image);
                checked++;
            } else if (e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED) {
                var a = e.getActivityTaskCompletedEventAttributes();
                if (!"Perform".equals(typeOf.get(a.getScheduledEventId()))) {
                    JsonNode step = payload(a.getResult(), 0);
                    if (!Step.REFUSED.equals(step.get("status").asText())) image = step.get("image").asText();
                }
            }
        }
        assertThat(checked).isPositive();
        return checked;
    }
}
