package afrimmlu

// The doc_to_text templates (str.format fields {subject}, {question},
// {choice1}..{choice4}).
const (
	// afrimmlu/direct/prompt_1/utils.py's doc_to_text.
	Direct1 = "You are a highly knowledgeable and intelligent artificial intelligence\n                model answers multiple-choice questions about {subject}\n\n                Question: {question}\n\n                Choices:\n                        A: {choice1}\n                        B: {choice2}\n                        C: {choice3}\n                        D: {choice4}\n\n                Answer:  "
	// afrimmlu/direct/prompt_2/utils.py's doc_to_text.
	Direct2 = "As an expert in {subject}, choose the most accurate answer to the question below.\nYour goal is to select the correct option 'A', 'B', 'C', or 'D' by understanding the nuances of the topic.\n\nQuestion: {question}\nChoices:\n        A: {choice1}\n        B: {choice2}\n        C: {choice3}\n        D: {choice4}\nAnswer: "
	// afrimmlu/direct/prompt_3/utils.py's doc_to_text.
	Direct3 = "You are a subject matter expert in {subject}.\n\n  Utilizing your expertise in {subject}, answer the following multiple-choice question\n  by picking 'A', 'B', 'C', or 'D'.\n\nQuestion: {question}\nChoices:\n        A: {choice1}\n        B: {choice2}\n        C: {choice3}\n        D: {choice4}\nAnswer: "
	// afrimmlu/direct/prompt_4/utils.py's doc_to_text.
	Direct4 = "Analyze each question critically and determine the most correct option based on your understanding of the subject matter\n\nQuestion: {question}\nChoices:\n        A: {choice1}\n        B: {choice2}\n        C: {choice3}\n        D: {choice4}\nAnswer: "
	// afrimmlu/direct/prompt_5/utils.py's doc_to_text.
	Direct5 = "Given your proficiency in {subject}, please answer the subsequent multiple-choice question with 'A', 'B', 'C', or 'D'.\n\nQuestion: {question}\nChoices:\n        A: {choice1}\n        B: {choice2}\n        C: {choice3}\n        D: {choice4}\nAnswer: "
	// afrimmlu/translate/prompt_3/utils.py's doc_to_text.
	Translate3 = "You are a subject matter expert in {subject}.\n\n  Utilizing your expertise in {subject}, answer the following multiple-choice question\n  by picking ''A'', ''B'', ''C'', or ''D''.\n\nQuestion: {question}\nChoices:\n        A: {choice1}\n        B: {choice2}\n        C: {choice3}\n        D: {choice4}\nAnswer: "
	// afrimmlu/translate/prompt_5/utils.py's doc_to_text.
	Translate5 = "Given your proficiency in {subject}, please answer the subsequent multiple-choice question with 'A', 'B', 'C', or 'D'.\nQuestion: {question}\nChoices:\n        A: {choice1}\n        B: {choice2}\n        C: {choice3}\n        D: {choice4}\nAnswer: "
)
