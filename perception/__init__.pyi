"""Names of memlens.perception for type checkers and editors (`name as name` re-exports
it). At run time each loads its module on first use, as lazy_loader reads this stub:
importing `perception.devices` or `.config` from memory or a client does not pull in
PyAV, OpenCV and the backends."""

from .asr import FasterWhisperRecognizer as FasterWhisperRecognizer
from .asr import SpeechRecognizer as SpeechRecognizer
from .asr import WhisperXRecognizer as WhisperXRecognizer
from .asr import make_speech_recognizer as make_speech_recognizer
from .cache import ObservationCache as ObservationCache
from .clip_embed import ImageTextEmbedder as ImageTextEmbedder
from .clip_embed import OpenClipEmbedder as OpenClipEmbedder
from .clip_embed import ensure_torchvision_importable as ensure_torchvision_importable
from .clip_embed import make_image_embedder as make_image_embedder
from .clips import clip_index_at as clip_index_at
from .clips import cut_clips as cut_clips
from .config import PerceptionConfig as PerceptionConfig
from .config import default_cache_root as default_cache_root
from .decode import VideoInfo as VideoInfo
from .decode import iter_audio as iter_audio
from .decode import iter_frames as iter_frames
from .decode import probe as probe
from .decode import read_audio as read_audio
from .errors import BackendUnavailable as BackendUnavailable
from .errors import EmptyVideoFile as EmptyVideoFile
from .errors import NoVideoStream as NoVideoStream
from .errors import PerceptionError as PerceptionError
from .errors import UnreadableVideo as UnreadableVideo
from .errors import VideoNotFound as VideoNotFound
from .keyframes import KeyframeSelector as KeyframeSelector
from .keyframes import select_keyframes as select_keyframes
from .ocr import EasyOcrReader as EasyOcrReader
from .ocr import RapidOcrReader as RapidOcrReader
from .ocr import TextReader as TextReader
from .ocr import make_text_reader as make_text_reader
from .pipeline import Perceiver as Perceiver
from .pipeline import file_video_id as file_video_id
from .progress import CallbackProgress as CallbackProgress
from .progress import NullProgress as NullProgress
from .progress import ProgressReporter as ProgressReporter
from .progress import RichProgress as RichProgress
from .serialize import video_from_dict as video_from_dict
from .serialize import video_to_dict as video_to_dict
from .speakers import NoSpeakerTagger as NoSpeakerTagger
from .speakers import ResemblyzerTagger as ResemblyzerTagger
from .speakers import SpeakerTagger as SpeakerTagger
from .speakers import make_speaker_tagger as make_speaker_tagger
from .types import AsrSegment as AsrSegment
from .types import ClipObservation as ClipObservation
from .types import ClipSpan as ClipSpan
from .types import OcrLine as OcrLine
from .types import VideoObservation as VideoObservation
from .types import Word as Word
from .vlm import DescriberError as DescriberError
from .vlm import FrameDescriber as FrameDescriber
from .vlm import OpenAIVisionDescriber as OpenAIVisionDescriber
from .vlm import make_frame_describer as make_frame_describer
