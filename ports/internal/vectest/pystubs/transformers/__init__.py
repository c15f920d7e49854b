__version__ = "0.0.0+lmeval.stub"  # lm-eval records it in the results
