package dev.assay.promptfoo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.check.promptfoo.PromptfooAssertions;
import dev.assay.model.ChatMessage;
import dev.assay.model.ChatModel;
import dev.assay.model.ModelRequest;
import dev.assay.model.ModelResponse;
import dev.assay.subject.Session;
import dev.assay.subject.Subject;
import dev.assay.subject.SubjectInput;
import dev.assay.subject.TrialObserver;
import dev.assay.transcript.Transcript;
import dev.assay.transcript.TranscriptBuilder;
import dev.assay.transcript.TranscriptEvent;
import dev.assay.transcript.Usage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One provider of a promptfoo config as a system under test: the rendered prompt sent once, the answer taken as it
 * comes, no tools and no system prompt, as promptfoo's providers call a model. A prompt that is a JSON list of
 * {@code {role, content}} messages is sent as those messages, as promptfoo's OpenAI and Anthropic providers read a chat
 * prompt; any other prompt is one user message. {@code echo} answers with the prompt and calls nothing. The answers go
 * through the run's response cache. Cases with an assertion Assay does not have are {@code skipped}. Thread-safe.
 */
final class ProviderSubject implements Subject {
    private static final Problem INTERRUPTED = Problem.of("run.cancelled", "the model call was interrupted");

    private final Provider provider;
    private final ChatModel model;
    private final int maxConcurrency;
    private final Map<String, List<String>> unsupported;

    /**
     * @param model the model called; null for {@code echo}
     * @param unsupported by case id, why the checker cannot judge some of its assertions
     */
    ProviderSubject(Provider provider, ChatModel model, int maxConcurrency, Map<String, List<String>> unsupported) {
        this.provider = provider;
        this.model = model;
        this.maxConcurrency = maxConcurrency;
        this.unsupported = Map.copyOf(unsupported);
    }

    @Override
    public String name() {
        return provider.key();
    }

    /** The model called, priced as the table names it; {@code echo}, which calls none, costs nothing. */
    @Override
    public String model() {
        return model == null ? Provider.ECHO : model.name();
    }

    @Override
    public Set<String> toolNames() {
        return Set.of();
    }

    @Override
    public int maxConcurrency() {
        return maxConcurrency;
    }

    @Override
    public Optional<Problem> unavailable(SubjectInput input) {
        List<String> reasons = unsupported.get(input.caseId());
        if (reasons == null) {
            return Optional.empty();
        }
        return Optional.of(Problem.of(
                        PromptfooAssertions.UNSUPPORTED,
                        String.join("; ", reasons) + " (docs/promptfoo.md), so the test is skipped")
                .withDetail("reasons", reasons));
    }

    @Override
    public Transcript run(SubjectInput input, Session session) throws InterruptedException {
        TranscriptBuilder transcript = session.transcript();
        if (model == null) {
            transcript.add(new TranscriptEvent.ModelTurn(Instant.now(), input.prompt(), "", new Usage(0, 0)));
            transcript.add(new TranscriptEvent.FinalAnswer(Instant.now(), input.prompt()));
            return transcript.build();
        }
        var request = new ModelRequest(
                messages(input.prompt()),
                List.of(),
                provider.temperature(),
                null,
                provider.maxTokens(),
                session.remaining());
        TrialObserver.ModelCall observed = session.observer().modelCall(model.name(), request);
        ModelResponse response;
        try {
            response = session.responses().complete(model, input.caseId(), request);
        } catch (AssayException e) {
            observed.failed(e.problem());
            transcript.add(new TranscriptEvent.SubjectError(Instant.now(), e.problem()));
            return transcript.build();
        } catch (InterruptedException e) {
            observed.failed(INTERRUPTED);
            throw e;
        }
        observed.answered(response);
        transcript.add(
                new TranscriptEvent.ModelTurn(Instant.now(), response.text(), response.reasoning(), response.usage()));
        transcript.add(new TranscriptEvent.FinalAnswer(Instant.now(), response.text()));
        return transcript.build();
    }

    /** {@return the messages of a prompt: a JSON chat's, else the prompt as one user message} */
    static List<ChatMessage> messages(String prompt) {
        String trimmed = prompt.strip();
        if (trimmed.startsWith("[")) {
            try {
                JsonNode chat = Json.MAPPER.readTree(trimmed);
                var messages = new ArrayList<ChatMessage>();
                for (JsonNode message : chat) {
                    String role = message.path("role").asText("");
                    JsonNode content = message.path("content");
                    String text = content.isTextual() ? content.textValue() : Json.write(content);
                    switch (role) {
                        case "system" -> messages.add(ChatMessage.system(text));
                        case "user" -> messages.add(ChatMessage.user(text));
                        case "assistant" -> messages.add(ChatMessage.assistant(text, List.of()));
                        default -> {
                            return List.of(ChatMessage.user(prompt));
                        }
                    }
                }
                if (!messages.isEmpty()) {
                    return messages;
                }
            } catch (java.io.IOException | RuntimeException notChat) {
                // Not a chat: promptfoo sends such a prompt as it is.
            }
        }
        return List.of(ChatMessage.user(prompt));
    }

    @Override
    public JsonNode describe() {
        ObjectNode node = Json.object();
        node.put("type", "promptfoo_provider");
        node.put("id", provider.id());
        node.put("label", provider.key());
        node.put("model", model == null ? Provider.ECHO : model.name());
        node.put("temperature", provider.temperature());
        node.put("max_tokens", provider.maxTokens());
        return node;
    }

    @Override
    public void close() {
        if (model != null) {
            model.close();
        }
    }
}
