//! Levels 4 and 5: one completion without tools. Level 4 asks a reasoning
//! model (`fararoni.thinking.*`) and keeps its reasoning apart; level 5 is
//! a plain chat completion (`fararoni.fallback.*`).

use super::client::{ChatMessage, ChatRequest, LlmClient, LlmError, Role, StreamEvent, ToolMode};

/// The system prompt of level 4.
pub const THINKING_PROMPT: &str = "You are git-fararoni's assistant for a developer working in a git repository. Think the problem through, then answer concisely. You cannot run commands or change files: say exactly what the developer should do.";

/// The system prompt of level 5.
pub const FALLBACK_PROMPT: &str = "You are git-fararoni's assistant for a developer working in a git repository. Answer concisely. You cannot run commands or change files.";

/// How a level samples: its `fararoni.<level>.maxTokens` and
/// `fararoni.<level>.temperature` rows (see `config::model_settings`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sampling {
    /// The most tokens to generate per call.
    pub max_tokens: u32,
    /// Sampling temperature.
    pub temperature: f32,
}

/// A level-4 or level-5 answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The visible answer (no `<think>` part).
    pub text: String,
    /// The reasoning, when the model showed any.
    pub reasoning: Option<String>,
}

/// Splits `<think>…</think>` out of a reply's text.
pub fn split_think(text: &str) -> (String, Option<String>) {
    let Some(start) = text.find("<think>") else {
        return (text.to_string(), None);
    };
    let after = &text[start + "<think>".len()..];
    match after.find("</think>") {
        Some(end) => {
            let visible = format!("{}{}", &text[..start], &after[end + "</think>".len()..]);
            (
                visible.trim().to_string(),
                Some(after[..end].trim().to_string()),
            )
        }
        // An unclosed think block: everything after it is reasoning.
        None => (
            text[..start].trim().to_string(),
            Some(after.trim().to_string()),
        ),
    }
}

/// Asks level `level` (4 or 5) for an answer to `request`.
pub fn answer(
    client: &mut dyn LlmClient,
    level: u8,
    request: &str,
    sampling: Sampling,
    on_text: &mut dyn FnMut(&str),
) -> Result<Answer, LlmError> {
    let prompt = if level == 4 {
        THINKING_PROMPT
    } else {
        FALLBACK_PROMPT
    };
    let messages = [
        ChatMessage::text(Role::System, prompt),
        ChatMessage::text(Role::User, request),
    ];
    let req = ChatRequest {
        messages: &messages,
        tools: &[],
        mode: ToolMode::None,
        max_tokens: sampling.max_tokens,
        temperature: sampling.temperature,
        require_tool: false,
    };
    let mut on = |e: StreamEvent<'_>| {
        if let StreamEvent::Text(t) = e {
            on_text(t);
        }
    };
    let r = client.chat(&req, &mut on)?;
    let (text, inline) = split_think(&r.content);
    Ok(Answer {
        text,
        reasoning: r.reasoning.or(inline),
    })
}

/// Returns the reply to small talk: the configured chat model's when one is
/// set and answers, else the built-in one. The second value explains why a
/// configured model was not used.
pub fn chat_reply(
    talk: crate::router::SmallTalk,
    input: &str,
    cwd: &std::path::Path,
) -> (String, Option<String>) {
    let builtin = crate::router::chat::builtin_reply(talk).to_string();
    let repo = crate::git::Repo::discover(cwd).ok().flatten();
    let settings = match crate::settings::read::model_settings(
        crate::settings::of(repo.as_ref()),
        crate::settings::read::ModelLevel::Chat,
    ) {
        Ok(s) => s,
        Err(e) => return (builtin, Some(e.to_string())),
    };
    let mut client = match crate::agent::local::client_for(
        repo.as_ref(),
        crate::settings::read::ModelLevel::Chat,
        settings.clone(),
    ) {
        Ok(Some(c)) => c.client,
        Ok(None) => return (builtin, None),
        Err(e) => return (builtin, Some(format!("{e} ({})", e.hint()))),
    };
    let messages = [
        ChatMessage::text(
            Role::System,
            "You are git-fararoni, a terse assistant living in a git repository. Reply to the user's small talk in one short sentence, in the user's language. Never suggest commands.",
        ),
        ChatMessage::text(Role::User, input),
    ];
    let request = ChatRequest {
        messages: &messages,
        tools: &[],
        mode: ToolMode::None,
        max_tokens: settings.max_tokens,
        temperature: settings.temperature,
        require_tool: false,
    };
    match client.chat(&request, &mut |_| {}) {
        Ok(reply) if !reply.content.trim().is_empty() => (reply.content.trim().to_string(), None),
        Ok(_) => (
            builtin,
            Some(format!("{} sent an empty reply", client.describe())),
        ),
        Err(e) => (builtin, Some(format!("{e} ({})", e.hint()))),
    }
}

#[cfg(test)]
mod tests {
    use super::split_think;

    #[test]
    fn think_is_split() {
        assert_eq!(
            split_think("<think>hmm</think> 42"),
            ("42".into(), Some("hmm".into()))
        );
        assert_eq!(split_think("plain"), ("plain".into(), None));
        assert_eq!(
            split_think("a <think>never closed"),
            ("a".into(), Some("never closed".into()))
        );
    }
}
