__version__ = "0+lmeval.vectest.stub"  # lm_eval.loggers reads it
